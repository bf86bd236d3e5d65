import { Transform } from 'class-transformer';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import {
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SIGNUP_MAX_AGE,
  SIGNUP_MIN_AGE,
} from '@mate/contracts';
import { IsPersonName } from '@mate/server-kit';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const normaliseEmail = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

const EMAIL_MESSAGE = 'Please enter a valid email address';
const PASSWORD_MESSAGE = `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;

export class RegisterDto {
  @ApiProperty({ format: 'email', maxLength: EMAIL_MAX_LENGTH, example: 'alex@example.com' })
  @Transform(normaliseEmail)
  @IsEmail({}, { message: EMAIL_MESSAGE })
  @MaxLength(EMAIL_MAX_LENGTH, { message: EMAIL_MESSAGE })
  @IsNotEmpty({ message: 'Email is required' })
  email!: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, format: 'password' })
  @IsString({ message: 'Password is required' })
  @MinLength(PASSWORD_MIN_LENGTH, { message: PASSWORD_MESSAGE })
  @MaxLength(PASSWORD_MAX_LENGTH, { message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters` })
  password!: string;

  @ApiPropertyOptional({ maxLength: NAME_MAX_LENGTH, example: 'Alex' })
  @IsOptional()
  @Transform(trim)
  // Control characters (NUL above all, which PostgreSQL refuses in text) and links never belong in a name.
  @IsPersonName()
  @IsString({ message: 'Name must be text' })
  @MaxLength(NAME_MAX_LENGTH, { message: `Name must be at most ${NAME_MAX_LENGTH} characters` })
  name?: string;

  // class-validator reports the decorators bottom-up: the type check comes first.
  @ApiPropertyOptional({ type: 'integer', minimum: SIGNUP_MIN_AGE, maximum: SIGNUP_MAX_AGE })
  @IsOptional()
  @Max(SIGNUP_MAX_AGE, { message: `Age must be at most ${SIGNUP_MAX_AGE}` })
  @Min(SIGNUP_MIN_AGE, { message: 'You must be 18 or older to use the product' })
  @IsInt({ message: 'Age must be a whole number' })
  age?: number;
}

export class LoginDto {
  @ApiProperty({ format: 'email', example: 'alex@example.com' })
  @Transform(normaliseEmail)
  @IsEmail({}, { message: EMAIL_MESSAGE })
  @MaxLength(EMAIL_MAX_LENGTH, { message: EMAIL_MESSAGE })
  email!: string;

  @ApiProperty({ format: 'password' })
  @IsString({ message: 'Password is required' })
  @IsNotEmpty({ message: 'Password is required' })
  @MaxLength(PASSWORD_MAX_LENGTH, { message: 'Invalid email or password' })
  password!: string;
}

export class ForgotPasswordDto {
  @ApiProperty({ format: 'email', example: 'alex@example.com' })
  @Transform(normaliseEmail)
  @IsEmail({}, { message: EMAIL_MESSAGE })
  @MaxLength(EMAIL_MAX_LENGTH, { message: EMAIL_MESSAGE })
  email!: string;
}

export class TokenDto {
  @ApiProperty({ maxLength: 200, description: 'The token from the emailed link' })
  @IsString({ message: 'Token is required' })
  @IsNotEmpty({ message: 'Token is required' })
  @MaxLength(200, { message: 'Token is invalid' })
  token!: string;
}

export class ResetPasswordDto extends TokenDto {
  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, format: 'password' })
  @IsString({ message: 'Password is required' })
  @MinLength(PASSWORD_MIN_LENGTH, { message: PASSWORD_MESSAGE })
  @MaxLength(PASSWORD_MAX_LENGTH, { message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters` })
  newPassword!: string;
}

export class RequestEmailChangeDto {
  @ApiProperty({ format: 'email', example: 'alex.new@example.com' })
  @Transform(normaliseEmail)
  @IsEmail({}, { message: EMAIL_MESSAGE })
  @MaxLength(EMAIL_MAX_LENGTH, { message: EMAIL_MESSAGE })
  newEmail!: string;
}
