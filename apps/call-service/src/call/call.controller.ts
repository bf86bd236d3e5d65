import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '@mate/contracts';
import { CurrentUser } from '@mate/server-kit';

export class CallWhoAmIDto {
  @ApiProperty({ example: 'call-service' })
  service!: string;

  @ApiProperty({ format: 'uuid' })
  userId!: string;
}

/** Every route needs a live session (global guard); the kit documents the bearer scheme and the 401. */
@ApiTags('call')
@Controller('api/calls')
export class CallController {
  /** Who is asking: proves the route, the gateway and the session check end to end. */
  @Get('me')
  @ApiOkResponse({ type: CallWhoAmIDto })
  me(@CurrentUser() user: AuthPrincipal): CallWhoAmIDto {
    return { service: 'call-service', userId: user.userId };
  }
}
