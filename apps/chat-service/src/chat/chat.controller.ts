import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '@mate/contracts';
import { CurrentUser } from '@mate/server-kit';

export class ChatWhoAmIDto {
  @ApiProperty({ example: 'chat-service' })
  service!: string;

  @ApiProperty({ format: 'uuid' })
  userId!: string;
}

/** Every route needs a live session (global guard); the kit documents the bearer scheme and the 401. */
@ApiTags('chat')
@Controller('api/chat')
export class ChatController {
  /** Who is asking: proves the route, the gateway and the session check end to end. */
  @Get('me')
  @ApiOkResponse({ type: ChatWhoAmIDto })
  me(@CurrentUser() user: AuthPrincipal): ChatWhoAmIDto {
    return { service: 'chat-service', userId: user.userId };
  }
}
