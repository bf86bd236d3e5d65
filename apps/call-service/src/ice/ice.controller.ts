import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal, IceServerDto, IceServersDto } from '@mate/contracts';
import { CurrentUser } from '@mate/server-kit';
import { IceService } from './ice.service';

export class IceServerResponseDto implements IceServerDto {
  @ApiProperty({ type: [String], example: ['turn:turn.example.org:3478?transport=udp'] })
  urls!: string[];

  @ApiPropertyOptional({ description: 'TURN only: `<expiry unix seconds>:<userId>`' })
  username?: string;

  @ApiPropertyOptional({ description: 'TURN only: base64 HMAC-SHA1 of the username (coturn REST scheme)' })
  credential?: string;
}

export class IceServersResponseDto implements IceServersDto {
  @ApiProperty({
    type: [IceServerResponseDto],
    description: 'Empty when none is configured (host candidates only)',
  })
  iceServers!: IceServerResponseDto[];

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the TURN credentials stop working; null without TURN',
  })
  expiresAt!: string | null;
}

/** Every route needs a live session (global guard). */
@ApiTags('call')
@Controller('api/calls')
export class IceController {
  constructor(private readonly ice: IceService) {}

  /** STUN and TURN for RTCPeerConnection; TURN credentials are the member's own and time-limited. */
  @Get('ice-servers')
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ type: IceServersResponseDto })
  iceServers(@CurrentUser() user: AuthPrincipal): IceServersDto {
    return this.ice.iceServersFor(user.userId);
  }
}
