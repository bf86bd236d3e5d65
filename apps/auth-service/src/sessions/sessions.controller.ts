import { Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe } from '@nestjs/common';
import { AuthErrorCode, AuthMessages, type AuthPrincipal } from '@mate/contracts';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AllowUnverified, ApiErrors, CurrentUser, MessageResponseDto, notFound } from '@mate/server-kit';
import { OtherSessionsEndedDto, SessionResponseDto } from './dto/session-responses.dto';
import { SessionsService } from './sessions.service';

/** A session id that is not a UUID names no session. */
const SESSION_NOT_FOUND = () => notFound(AuthMessages.sessionNotFound, AuthErrorCode.SessionNotFound);

/** Security features: an unverified account may see and end its sessions too. */
@ApiTags('sessions')
@AllowUnverified()
@Controller('api/sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get('my')
  @ApiOkResponse({ type: [SessionResponseDto] })
  my(@CurrentUser() principal: AuthPrincipal) {
    return this.sessions.list(principal);
  }

  @Delete('all/except-current')
  @HttpCode(200)
  @ApiOkResponse({ type: OtherSessionsEndedDto, description: 'Also calls off a pending email change' })
  async endOthers(@CurrentUser() principal: AuthPrincipal) {
    const count = await this.sessions.endOthers(principal);
    return { message: AuthMessages.otherSessionsRevoked, count };
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrors(400, 404)
  async endOne(
    @CurrentUser() principal: AuthPrincipal,
    @Param('id', new ParseUUIDPipe({ exceptionFactory: SESSION_NOT_FOUND })) id: string,
  ) {
    await this.sessions.endOne(principal, id);
    return { message: AuthMessages.sessionRevoked };
  }
}
