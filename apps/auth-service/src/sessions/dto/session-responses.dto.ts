import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { SessionDto } from '@mate/contracts';

/** Response shapes for the OpenAPI document; the contracts' interfaces keep them honest. */
export class SessionResponseDto implements SessionDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'Chrome on macOS' }) deviceInfo!: string;
  @ApiPropertyOptional({ example: '203.0.113.7' }) ipAddress?: string;
  @ApiProperty({ format: 'date-time' }) lastActivity!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ description: 'The session this request was made with' }) isCurrent!: boolean;
}

export class OtherSessionsEndedDto {
  @ApiProperty({ example: 'All other sessions logged out' }) message!: string;
  @ApiProperty({ description: 'How many sessions were ended' }) count!: number;
}
