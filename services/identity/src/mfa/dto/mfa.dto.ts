import { IsObject, IsOptional, IsString } from 'class-validator';

export class EnrollFactorDto {
  @IsOptional()
  @IsString({ message: 'factor_type must be a string' })
  factor_type?: string;

  @IsOptional()
  @IsString({ message: 'friendly_name must be a string' })
  friendly_name?: string;

  @IsOptional()
  @IsString({ message: 'issuer must be a string' })
  issuer?: string;

  @IsOptional()
  @IsString({ message: 'phone must be a string' })
  phone?: string;
}

export class ChallengeFactorDto {
  @IsOptional()
  @IsString({ message: 'channel must be a string' })
  channel?: string;

  @IsOptional()
  @IsObject({ message: 'webauthn must be an object' })
  webauthn?: Record<string, unknown>;
}

export class VerifyFactorDto {
  @IsOptional()
  @IsString({ message: 'challenge_id must be a string' })
  challenge_id?: string;

  @IsOptional()
  @IsString({ message: 'code must be a string' })
  code?: string;

  @IsOptional()
  @IsObject({ message: 'webauthn must be an object' })
  webauthn?: Record<string, unknown>;
}
