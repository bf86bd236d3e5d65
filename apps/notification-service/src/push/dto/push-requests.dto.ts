import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { NotificationMessages, type PushSubscriptionDto, type UnsubscribeRequestDto } from '@mate/contracts';
import { MAX_ENDPOINT_LENGTH } from '../push-endpoint';

/** The subscription's keys as the browser gives them (base64url); their content is checked by the service. */
export class PushSubscriptionKeysBody {
  @ApiProperty({ description: "The browser's P-256 public key, base64url (65 bytes)" })
  @MaxLength(200, { message: NotificationMessages.invalidSubscription })
  @IsString({ message: NotificationMessages.invalidSubscription })
  p256dh!: string;

  @ApiProperty({ description: 'The authentication secret, base64url (16 bytes)' })
  @MaxLength(100, { message: NotificationMessages.invalidSubscription })
  @IsString({ message: NotificationMessages.invalidSubscription })
  auth!: string;
}

/** `POST /api/notifications/subscribe`: `PushSubscription.toJSON()`. */
export class PushSubscriptionBody implements PushSubscriptionDto {
  @ApiProperty({ description: "The push service's URL for this device: https, a public host" })
  @MaxLength(MAX_ENDPOINT_LENGTH, { message: NotificationMessages.endpointNotAllowed })
  @IsString({ message: NotificationMessages.invalidSubscription })
  endpoint!: string;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @IsOptional()
  @IsNumber({}, { message: NotificationMessages.invalidSubscription })
  expirationTime?: number | null;

  @ApiProperty({ type: PushSubscriptionKeysBody })
  @ValidateNested()
  @Type(() => PushSubscriptionKeysBody)
  @IsObject({ message: NotificationMessages.invalidSubscription })
  @IsDefined({ message: NotificationMessages.invalidSubscription })
  keys!: PushSubscriptionKeysBody;
}

/** `DELETE /api/notifications/unsubscribe` body or query: one device, or (no endpoint) all. */
export class UnsubscribeBody implements UnsubscribeRequestDto {
  @ApiPropertyOptional({ description: 'The endpoint of the device to unsubscribe; without it, every device' })
  @ValidateIf((_: object, value: unknown) => value !== undefined)
  @MaxLength(MAX_ENDPOINT_LENGTH, { message: NotificationMessages.invalidSubscription })
  @IsString({ message: NotificationMessages.invalidSubscription })
  endpoint?: string;
}
