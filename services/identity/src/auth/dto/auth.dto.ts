import { IsIn, IsObject, IsOptional, IsString } from 'class-validator';

/**
 * Bodies as the hosted service's client library sends them. Fields it sends that Beacon does not use (captcha,
 * PKCE, SMS channel) are declared so they are accepted, and ignored.
 */
export class ClientExtrasDto {
  @IsOptional() @IsObject({ message: 'gotrue_meta_security must be an object' })
  gotrue_meta_security?: Record<string, unknown>;

  @IsOptional() @IsString({ message: 'code_challenge must be a string' })
  code_challenge?: string;

  @IsOptional() @IsString({ message: 'code_challenge_method must be a string' })
  code_challenge_method?: string;
}

export class SignUpDto extends ClientExtrasDto {
  @IsOptional() @IsString({ message: 'email must be a string' })
  email?: string;

  @IsOptional() @IsString({ message: 'phone must be a string' })
  phone?: string;

  @IsOptional() @IsString({ message: 'password must be a string' })
  password?: string;

  @IsOptional() @IsObject({ message: 'data must be an object' })
  data?: Record<string, unknown>;

  @IsOptional() @IsString({ message: 'channel must be a string' })
  channel?: string;
}

/** POST /token: the password grant and the refresh_token grant share one body. */
export class TokenDto extends ClientExtrasDto {
  @IsOptional() @IsString({ message: 'email must be a string' })
  email?: string;

  @IsOptional() @IsString({ message: 'phone must be a string' })
  phone?: string;

  @IsOptional() @IsString({ message: 'password must be a string' })
  password?: string;

  @IsOptional() @IsString({ message: 'refresh_token must be a string' })
  refresh_token?: string;
}

export const LOGOUT_SCOPES = ['global', 'local', 'others'] as const;

export class LogoutQueryDto {
  @IsOptional() @IsIn(LOGOUT_SCOPES as unknown as string[], { message: 'Unsupported logout scope: use global, local or others' })
  scope?: (typeof LOGOUT_SCOPES)[number];
}
