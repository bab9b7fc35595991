import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsObject, IsOptional, IsString, Max, Min } from 'class-validator';

export class AdminUserDto {
  @IsOptional()
  @IsString({ message: 'email must be a string' })
  email?: string;

  @IsOptional()
  @IsString({ message: 'password must be a string' })
  password?: string;

  @IsOptional()
  @IsBoolean({ message: 'email_confirm must be true or false' })
  email_confirm?: boolean;

  @IsOptional()
  @IsObject({ message: 'user_metadata must be an object' })
  user_metadata?: Record<string, unknown>;

  @IsOptional()
  @IsObject({ message: 'app_metadata must be an object' })
  app_metadata?: Record<string, unknown>;

  @IsOptional()
  @IsString({ message: 'ban_duration must be a string' })
  ban_duration?: string;
}

export class DeleteUserDto {
  @IsOptional()
  @IsBoolean({ message: 'should_soft_delete must be true or false' })
  should_soft_delete?: boolean;
}

/** auth-js sends `page=&per_page=` when the caller gives none. */
const emptyAsUnset = ({ value }: { value: unknown }) => (value === '' || value === undefined ? undefined : Number(value));

export class ListUsersQueryDto {
  @IsOptional()
  @Transform(emptyAsUnset)
  @IsInt({ message: 'page must be a whole number from 1' })
  @Min(1, { message: 'page must be a whole number from 1' })
  page?: number;

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsInt({ message: 'per_page must be a whole number from 1 to 1000' })
  @Min(1, { message: 'per_page must be a whole number from 1 to 1000' })
  @Max(1000, { message: 'per_page must be a whole number from 1 to 1000' })
  per_page?: number;

  @IsOptional()
  @IsString()
  filter?: string;
}
