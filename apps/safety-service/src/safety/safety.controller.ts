import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '@mate/contracts';
import { CurrentUser } from '@mate/server-kit';

export class SafetyWhoAmIDto {
  @ApiProperty({ example: 'safety-service' })
  service!: string;

  @ApiProperty({ format: 'uuid' })
  userId!: string;
}

/** Every route needs a live session (global guard); the kit documents the bearer scheme and the 401. */
@ApiTags('safety')
@Controller('api/safety')
export class SafetyController {
  /** Who is asking: proves the route, the gateway and the session check end to end. */
  @Get('me')
  @ApiOkResponse({ type: SafetyWhoAmIDto })
  me(@CurrentUser() user: AuthPrincipal): SafetyWhoAmIDto {
    return { service: 'safety-service', userId: user.userId };
  }
}
