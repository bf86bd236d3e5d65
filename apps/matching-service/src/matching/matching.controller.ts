import { Controller, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  MatchingErrorCode,
  MatchingMessages,
  type AuthPrincipal,
  type LikeResultDto,
  type MatchDto,
  type MatchStatsDto,
  type PassResultDto,
  type RewindResultDto,
  type SuggestionDto,
} from '@mate/contracts';
import { ApiErrors, CountedPerMember, CurrentUser, MemberIdPipe, notFound } from '@mate/server-kit';
import {
  LikeResultResponseDto,
  MatchResponseDto,
  MatchStatsResponseDto,
  PassResultResponseDto,
  RewindResultResponseDto,
  SuggestionResponseDto,
} from './dto/matching-responses.dto';
import { SuggestionsQueryDto } from './dto/suggestions-query.dto';
import { MatchesService } from './matches.service';
import { MemberRateLimiter } from './member-rate-limits';
import { SuggestionsService } from './suggestions.service';
import { SwipesService } from './swipes.service';

/** The other member's id in a swipe's path, lower-cased; anything that is not a UUID names nobody (404). */
const SWIPED_MEMBER_ID = new MemberIdPipe({
  exceptionFactory: () => notFound(MatchingMessages.memberNotFound, MatchingErrorCode.MemberNotFound),
});

/**
 * Matching for the signed-in member (spec 000 §7 and issue 8): suggestions, like, pass, rewind,
 * matches and stats. Every route needs a live session of a verified account (global guard); swipes
 * and suggestion loads count against the member's rate limits before any work is done (counted by
 * the guard in its session check's Redis call: `@CountedPerMember`).
 */
@ApiTags('matching')
@Controller('api/matches')
export class MatchingController {
  constructor(
    private readonly suggestions: SuggestionsService,
    private readonly swipes: SwipesService,
    private readonly matches: MatchesService,
  ) {}

  @Get('suggestions')
  @ApiOkResponse({ type: [SuggestionResponseDto], description: 'Best first; empty when nobody fits' })
  @ApiErrors(400, 429)
  @CountedPerMember(MemberRateLimiter, 'suggestions')
  async suggest(
    @CurrentUser() user: AuthPrincipal,
    @Query() query: SuggestionsQueryDto,
  ): Promise<SuggestionDto[]> {
    return this.suggestions.suggestions(user.userId, query.limit);
  }

  @Post('like/:userId')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: LikeResultResponseDto })
  @ApiErrors(400, 404, 429)
  @CountedPerMember(MemberRateLimiter, 'swipe')
  async like(
    @CurrentUser() user: AuthPrincipal,
    @Param('userId', SWIPED_MEMBER_ID) userId: string,
  ): Promise<LikeResultDto> {
    return this.swipes.like(user.userId, userId);
  }

  @Post('pass/:userId')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: PassResultResponseDto })
  @ApiErrors(400, 404, 429)
  @CountedPerMember(MemberRateLimiter, 'swipe')
  async pass(
    @CurrentUser() user: AuthPrincipal,
    @Param('userId', SWIPED_MEMBER_ID) userId: string,
  ): Promise<PassResultDto> {
    return this.swipes.pass(user.userId, userId);
  }

  @Post('rewind')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({
    type: RewindResultResponseDto,
    description: "The member's latest pass, undone: that card goes back on top",
  })
  @ApiErrors(404, 429)
  @CountedPerMember(MemberRateLimiter, 'swipe')
  async rewind(@CurrentUser() user: AuthPrincipal): Promise<RewindResultDto> {
    return { suggestion: await this.swipes.rewind(user.userId) };
  }

  @Get('my-matches')
  @ApiOkResponse({ type: [MatchResponseDto], description: 'Newest first' })
  myMatches(@CurrentUser() user: AuthPrincipal): Promise<MatchDto[]> {
    return this.matches.myMatches(user.userId);
  }

  @Get('stats')
  @ApiOkResponse({ type: MatchStatsResponseDto })
  stats(@CurrentUser() user: AuthPrincipal): Promise<MatchStatsDto> {
    return this.matches.stats(user.userId);
  }
}
