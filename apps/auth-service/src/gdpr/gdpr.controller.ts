import { Body, Controller, Header, HttpCode, Post, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { GdprMessages, type AuthPrincipal, type GdprExportResponse } from '@mate/contracts';
import { AllowUnverified, ApiErrors, CountedPerMember, CurrentUser, EmptyBodyPipe, MessageResponseDto, UnavailableInterceptor } from '@mate/server-kit';
import { MemberRequestLimits } from '../accounts/rate-limits';
import { AccountDeletionService } from './account-deletion.service';
import { DeleteAccountDto } from './dto/delete-account.dto';
import { GdprExportResponseDto } from './dto/gdpr-responses.dto';
import { MemberDataExportService } from './member-data-export.service';

/**
 * Privacy and data (spec 001 §2): a member's own data, to take away or to erase. Open to an
 * unverified account too: what it holds is theirs to see and to delete as much as a verified one's.
 */
@ApiTags('gdpr')
@AllowUnverified()
// Both are safe to repeat (a second deletion finds no account), so Redis or the database away for
// a moment answers 503, which clients retry, not 500.
@UseInterceptors(UnavailableInterceptor)
@Controller('api/gdpr')
export class GdprController {
  constructor(
    private readonly exports: MemberDataExportService,
    private readonly deletion: AccountDeletionService,
  ) {}

  @Post('export')
  @HttpCode(200)
  @CountedPerMember(MemberRequestLimits, 'export')
  // The document is the member's whole data: no cache on the way may keep a copy.
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ type: GdprExportResponseDto })
  @ApiErrors(400, 401, 429, 503)
  async export(@CurrentUser() principal: AuthPrincipal, @Body(EmptyBodyPipe) _body: undefined): Promise<GdprExportResponse> {
    return { data: await this.exports.exportFor(principal.userId) };
  }

  @Post('delete-account')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrors(400, 401, 403, 503)
  async deleteAccount(@CurrentUser() principal: AuthPrincipal, @Body() dto: DeleteAccountDto) {
    await this.deletion.deleteAccount(principal.userId, dto.confirmEmail);
    return { message: GdprMessages.accountDeleted };
  }
}
