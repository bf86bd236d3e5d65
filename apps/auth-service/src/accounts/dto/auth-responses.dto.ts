import { ApiProperty } from '@nestjs/swagger';
import { ROLE_ADMIN, ROLE_MEMBER, type AuthResponse, type Role, type UserDto, type VerifyEmailChangeResponse, type VerifyResetTokenResponse } from '@mate/contracts';

/** Response shapes for the OpenAPI document; the contracts' interfaces keep them honest. */
export class UserResponseDto implements UserDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'alex@example.com' }) email!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Alex' }) name!: string | null;
  @ApiProperty({ enum: [ROLE_MEMBER, ROLE_ADMIN] }) role!: Role;
  @ApiProperty() isVerified!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class AuthResponseDto implements AuthResponse {
  @ApiProperty({ description: 'Bearer token (JWT) for the Authorization header' }) token!: string;
  @ApiProperty({ type: UserResponseDto }) user!: UserResponseDto;
}

export class VerifyResetTokenResponseDto implements VerifyResetTokenResponse {
  @ApiProperty({ enum: [true] }) valid!: true;
}

export class VerifyEmailChangeResponseDto implements VerifyEmailChangeResponse {
  @ApiProperty({ example: 'Email updated successfully' }) message!: string;
  @ApiProperty({ example: 'alex.new@example.com' }) newEmail!: string;
}
