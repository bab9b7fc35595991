import { IsIn, IsOptional } from 'class-validator';
import { OptionalObject, OptionalString } from '@beacon/common';

/**
 * Bodies as the hosted service's client library sends them. Fields it sends that Beacon does not use (captcha,
 * PKCE, SMS channel) are declared so they are accepted, and ignored.
 */
export class ClientExtrasDto {
  @OptionalObject() gotrue_meta_security?: Record<string, unknown>;
  @OptionalString() code_challenge?: string;
  @OptionalString() code_challenge_method?: string;
}

// SignUpDto and TokenDto each declare email, phone and password rather than share a base class: class-validator
// checks a class's own fields before inherited ones, and the first failing field is the response's message.
export class SignUpDto extends ClientExtrasDto {
  @OptionalString() email?: string;
  @OptionalString() phone?: string;
  @OptionalString() password?: string;
  @OptionalObject() data?: Record<string, unknown>;
  @OptionalString() channel?: string;
}

/** POST /token: the password grant and the refresh_token grant share one body. */
export class TokenDto extends ClientExtrasDto {
  @OptionalString() email?: string;
  @OptionalString() phone?: string;
  @OptionalString() password?: string;
  @OptionalString() refresh_token?: string;
}

export const LOGOUT_SCOPES = ['global', 'local', 'others'] as const;

export class LogoutQueryDto {
  @IsOptional()
  @IsIn(LOGOUT_SCOPES as unknown as string[], { message: 'Unsupported logout scope: use global, local or others' })
  scope?: (typeof LOGOUT_SCOPES)[number];
}
