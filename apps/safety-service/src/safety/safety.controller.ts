import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, UseInterceptors } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type {
  AuthPrincipal,
  BlockedUserDto,
  BlockResultDto,
  ReportResultDto,
  UnblockResultDto,
  UnmatchResultDto,
} from '@mate/contracts';
import {
  ApiErrors,
  CountedPerMember,
  CurrentUser,
  EmptyBodyPipe,
  MemberIdPipe,
  UnavailableInterceptor,
} from '@mate/server-kit';
import { BlocksService } from './blocks.service';
import { BlockBodyDto, ReportBodyDto } from './dto/safety-requests.dto';
import {
  BlockedUserResponseDto,
  ReportResultResponseDto,
  UnblockResultResponseDto,
  UnmatchResultResponseDto,
} from './dto/safety-responses.dto';
import { ReportsService } from './reports.service';
import { SafetyRateLimiter } from './safety-rate-limits';

import { UnmatchService } from './unmatch.service';

/**
 * Safety for the signed-in member (spec 000 §7): block, unblock, the blocked list, report and
 * unmatch. Every route needs a live session (global guard) and acts only as the caller: the other
 * member is the path's id, the acting member always the session's. A failure that is not a
 * refusal is 503, safe to retry. Blocks, unblocks and reports count against the member's limits
 * (`@CountedPerMember`: counted by the guard with the session, 429 past them).
 */
@ApiTags('safety')
@UseInterceptors(UnavailableInterceptor)
@Controller('api/safety')
export class SafetyController {
  constructor(
    private readonly blocks: BlocksService,
    private readonly reports: ReportsService,
    private readonly unmatches: UnmatchService,
  ) {}

  @Post('block/:userId')
  @HttpCode(HttpStatus.OK)
  @CountedPerMember(SafetyRateLimiter, 'blockAction')
  @ApiOkResponse({ type: BlockedUserResponseDto, description: 'The block (the same one again for a repeated block); it also unmatches' })
  @ApiErrors(400, 404, 429, 503)
  block(
    @CurrentUser() user: AuthPrincipal,
    @Param('userId', MemberIdPipe) userId: string,
    @Body() body: BlockBodyDto,
  ): Promise<BlockResultDto> {
    return this.blocks.block(user.userId.toLowerCase(), userId, body.reason);
  }

  @Delete('block/:userId')
  @CountedPerMember(SafetyRateLimiter, 'blockAction')
  @ApiOkResponse({ type: UnblockResultResponseDto, description: 'The match is not restored' })
  @ApiErrors(400, 429, 503)
  unblock(@CurrentUser() user: AuthPrincipal, @Param('userId', MemberIdPipe) userId: string): Promise<UnblockResultDto> {
    return this.blocks.unblock(user.userId.toLowerCase(), userId);
  }

  @Get('blocked')
  @ApiOkResponse({ type: [BlockedUserResponseDto], description: 'Newest first, at most 1,000' })
  @ApiErrors(503)
  blocked(@CurrentUser() user: AuthPrincipal): Promise<BlockedUserDto[]> {
    return this.blocks.blockedUsers(user.userId.toLowerCase());
  }

  @Post('report/:userId')
  @CountedPerMember(SafetyRateLimiter, 'report')
  @ApiCreatedResponse({ type: ReportResultResponseDto })
  @ApiErrors(400, 404, 409, 429, 503)
  report(
    @CurrentUser() user: AuthPrincipal,
    @Param('userId', MemberIdPipe) userId: string,
    @Body() body: ReportBodyDto,
  ): Promise<ReportResultDto> {
    return this.reports.report(user.userId.toLowerCase(), userId, body);
  }

  @Post('unmatch/:userId')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: UnmatchResultResponseDto })
  @ApiErrors(400, 404, 503)
  unmatch(
    @CurrentUser() user: AuthPrincipal,
    @Param('userId', MemberIdPipe) userId: string,
    @Body(EmptyBodyPipe) _body: undefined,
  ): Promise<UnmatchResultDto> {
    return this.unmatches.unmatch(user.userId.toLowerCase(), userId);
  }
}
