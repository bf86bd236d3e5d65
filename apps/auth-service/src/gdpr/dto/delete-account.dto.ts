import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { EMAIL_MAX_LENGTH, type DeleteAccountRequest } from '@mate/contracts';

export class DeleteAccountDto implements DeleteAccountRequest {
  /** Compared with the account's email trimmed and case-insensitively (AccountDeletionService). */
  @ApiProperty({ maxLength: EMAIL_MAX_LENGTH, example: 'alex@example.com', description: "The account's email, typed again" })
  @IsNotEmpty({ message: 'Please enter your email address to confirm' })
  @MaxLength(EMAIL_MAX_LENGTH, { message: `Email must be at most ${EMAIL_MAX_LENGTH} characters` })
  @IsString({ message: 'Please enter your email address to confirm' })
  confirmEmail!: string;
}
