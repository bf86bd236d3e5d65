import { Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe } from '@nestjs/common';
import { AuthMessages, type AuthPrincipal } from '@mate/contracts';
import { CurrentUser, notFound } from '@mate/server-kit';
import { SessionsService } from './sessions.service';

@Controller('api/sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get('my')
  my(@CurrentUser() principal: AuthPrincipal) {
    return this.sessions.list(principal);
  }

  @Delete('all/except-current')
  @HttpCode(200)
  async endOthers(@CurrentUser() principal: AuthPrincipal) {
    const count = await this.sessions.endAll(principal.userId, principal.sessionId);
    return { message: AuthMessages.otherSessionsRevoked, count };
  }

  @Delete(':id')
  @HttpCode(200)
  async endOne(
    @CurrentUser() principal: AuthPrincipal,
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => notFound(AuthMessages.sessionNotFound) })) id: string,
  ) {
    await this.sessions.endOne(principal, id);
    return { message: AuthMessages.sessionRevoked };
  }
}
