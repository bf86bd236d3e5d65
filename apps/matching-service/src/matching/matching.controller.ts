import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '@mate/contracts';
import { CurrentUser } from '@mate/server-kit';

export class MatchingWhoAmIDto {
  @ApiProperty({ example: 'matching-service' })
  service!: string;

  @ApiProperty({ format: 'uuid' })
  userId!: string;
}

/** Every route needs a live session (global guard); the kit documents the bearer scheme and the 401. */
@ApiTags('matching')
@Controller('api/matches')
export class MatchingController {
  /** Who is asking: proves the route, the gateway and the session check end to end. */
  @Get('me')
  @ApiOkResponse({ type: MatchingWhoAmIDto })
  me(@CurrentUser() user: AuthPrincipal): MatchingWhoAmIDto {
    return { service: 'matching-service', userId: user.userId };
  }
}
