import { IsObject, IsOptional, IsString } from 'class-validator';
import { ClientExtrasDto } from '../../auth/dto/auth.dto';

export class UpdateUserDto extends ClientExtrasDto {
  @IsOptional()
  @IsString({ message: 'email must be a string' })
  email?: string;

  @IsOptional()
  @IsString({ message: 'password must be a string' })
  password?: string;

  @IsOptional()
  @IsString({ message: 'nonce must be a string' })
  nonce?: string;

  @IsOptional()
  @IsObject({ message: 'data must be an object' })
  data?: Record<string, unknown>;

  @IsOptional()
  @IsString({ message: 'phone must be a string' })
  phone?: string;

  @IsOptional()
  @IsString({ message: 'channel must be a string' })
  channel?: string;

  @IsOptional()
  @IsObject({ message: 'app_metadata must be an object' })
  app_metadata?: Record<string, unknown>;
}
