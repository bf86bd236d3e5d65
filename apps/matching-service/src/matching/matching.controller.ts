import { Controller, Get, HttpCode, HttpStatus, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  MatchingMessages,
  type AuthPrincipal,
  type LikeResultDto,
  type MatchDto,
  type MatchStatsDto,
  type PassResultDto,
  type RewindResultDto,
  type SuggestionDto,
} from '@mate/contracts';
import { ApiErrors, CurrentUser, notFound } from '@mate/server-kit';
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
import { SuggestionsService } from './suggestions.service';
import { SwipesService } from './swipes.service';

/** A member id in the path: anything but a UUID names nobody. */
const memberId = () =>
  new ParseUUIDPipe({ exceptionFactory: () => notFound(MatchingMessages.memberNotFound) });

/**
 * Matching for the signed-in member (spec 000 §7 and issue 8): suggestions, like, pass, rewind,
 * matches and stats. Every route needs a live session of a verified account (global guard).
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
  @ApiErrors(400)
  suggest(@CurrentUser() user: AuthPrincipal, @Query() query: SuggestionsQueryDto): Promise<SuggestionDto[]> {
    return this.suggestions.suggestions(user.userId, query.limit);
  }

  @Post('like/:userId')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: LikeResultResponseDto })
  @ApiErrors(400, 404)
  like(
    @CurrentUser() user: AuthPrincipal,
    @Param('userId', memberId()) userId: string,
  ): Promise<LikeResultDto> {
    return this.swipes.like(user.userId, userId);
  }

  @Post('pass/:userId')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: PassResultResponseDto })
  @ApiErrors(400, 404)
  pass(
    @CurrentUser() user: AuthPrincipal,
    @Param('userId', memberId()) userId: string,
  ): Promise<PassResultDto> {
    return this.swipes.pass(user.userId, userId);
  }

  @Post('rewind')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({
    type: RewindResultResponseDto,
    description: "The member's latest pass, undone: that card goes back on top",
  })
  @ApiErrors(404)
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
