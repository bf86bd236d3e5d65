import { Controller, Get, Param, ParseUUIDPipe, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import {
  CALL_HISTORY_HAS_MORE_HEADER,
  type AuthPrincipal,
  type CallRecordDto,
  type CallStatsDto,
} from '@mate/contracts';
import { ApiErrors, badRequest, CurrentUser, UnavailableInterceptor } from '@mate/server-kit';
import { CallsService } from './calls.service';
import { CallHistoryQueryDto } from './dto/call-requests.dto';
import { CallRecordResponseDto, CallStatsResponseDto } from './dto/call-responses.dto';

/**
 * The member's calls (spec 000 §7). Every route needs a live session (global guard) and reaches
 * only the member's own calls; signalling is the `call:*` socket events (call-socket-events.ts).
 */
@ApiTags('calls')
@UseInterceptors(UnavailableInterceptor)
@Controller('api/calls')
export class CallController {
  constructor(private readonly calls: CallsService) {}

  /** The body stays the spec's list of records (spec 000 §7); whether a next page exists rides in a header. */
  @Get('history')
  @ApiOkResponse({
    type: [CallRecordResponseDto],
    description: 'The member’s calls, newest first, optionally of one status',
    headers: { [CALL_HISTORY_HAS_MORE_HEADER]: { description: '`true` when another page of the same filter follows', schema: { type: 'string', enum: ['true', 'false'] } } },
  })
  @ApiErrors(400, 503)
  async history(
    @CurrentUser() user: AuthPrincipal,
    @Query() query: CallHistoryQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CallRecordDto[]> {
    const { calls, hasMore } = await this.calls.history(user.userId, query);
    res.setHeader(CALL_HISTORY_HAS_MORE_HEADER, String(hasMore));
    return calls;
  }

  @Get('stats')
  @ApiOkResponse({ type: CallStatsResponseDto })
  @ApiErrors(503)
  stats(@CurrentUser() user: AuthPrincipal): Promise<CallStatsDto> {
    return this.calls.stats(user.userId);
  }

  @Get(':id')
  @ApiOkResponse({ type: CallRecordResponseDto })
  @ApiErrors(400, 404, 503)
  one(
    @CurrentUser() user: AuthPrincipal,
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => badRequest('id must be a UUID') })) id: string,
  ): Promise<CallRecordDto> {
    return this.calls.one(user.userId, id.toLowerCase());
  }
}
