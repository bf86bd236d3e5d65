import { ApiProperty } from '@nestjs/swagger';
import type { NotificationPreferencesDto, VapidPublicKeyDto } from '@mate/contracts';

/** Response shapes for the OpenAPI document; the contracts' interfaces keep them honest. */
export class VapidPublicKeyResponse implements VapidPublicKeyDto {
  @ApiProperty({ description: 'The application server key, base64url (uncompressed P-256 point)' })
  publicKey!: string;
}

export class NotificationPreferencesResponse implements NotificationPreferencesDto {
  @ApiProperty({ default: true }) newMatches!: boolean;
  @ApiProperty({ default: true }) newMessages!: boolean;
  @ApiProperty({ default: true }) newLikes!: boolean;
  @ApiProperty({ default: true }) safetyAlerts!: boolean;
  @ApiProperty({ default: true }) adminActions!: boolean;
  @ApiProperty({ default: false, description: 'Pushes name nobody (beyond the spec)' })
  privatePreviews!: boolean;
}

export class NotificationMessageResponse {
  @ApiProperty({ example: 'Subscribed' }) message!: string;
}
