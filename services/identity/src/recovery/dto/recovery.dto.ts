import { IsOptional, IsString } from 'class-validator';
import { ClientExtrasDto } from '../../auth/dto/auth.dto';

export class RecoverDto extends ClientExtrasDto {
  @IsString({ message: 'Password recovery requires an email' })
  email: string;
}

/** POST /verify: `token_hash` from a mail link (auth-js verifyOtp), or `token` as in the link itself. */
export class VerifyDto extends ClientExtrasDto {
  @IsOptional()
  @IsString({ message: 'type must be a string' })
  type?: string;

  @IsOptional()
  @IsString({ message: 'token_hash must be a string' })
  token_hash?: string;

  @IsOptional()
  @IsString({ message: 'token must be a string' })
  token?: string;

  @IsOptional()
  @IsString({ message: 'email must be a string' })
  email?: string;

  @IsOptional()
  @IsString({ message: 'redirect_to must be a string' })
  redirect_to?: string;
}

export class VerifyQueryDto {
  @IsOptional() @IsString() token?: string;
  @IsOptional() @IsString() type?: string;
  @IsOptional() @IsString() redirect_to?: string;
}
