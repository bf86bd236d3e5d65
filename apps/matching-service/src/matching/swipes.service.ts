import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  MatchingErrorCode,
  MatchingMessages,
  type LikeResultDto,
  type PassResultDto,
  type SuggestionDto,
} from '@mate/contracts';
import { badRequest, notFound, OutboxService, ReadReplica } from '@mate/server-kit';
import { MatchGate } from './match-gate';
import { MatchNotifier, type MatchMember } from './match-notifier';
import { SuggestionsService } from './suggestions.service';
import { SwipesRepository, type LikeCreatedByStatement, type LikeRow, type MatchCreatedByStatement } from './swipes.repository';

/** The pair in the order the match table stores it (user_a < user_b). */
const ordered = (x: string, y: string): [string, string] => (x < y ? [x, y] : [y, x]);

/**
 * Likes, passes and rewinds. A like is checked against the same rules as the candidate pool
 * (mutualRulesSql); a like that meets an earlier like from the other side makes the match. Both
 * likes of a pair take the same pair lock first (onceUnderPairLock), so two concurrent mutual
 * likes run one after the other and the second one sees the first: exactly one match, made by
 * whichever commits second (the unique pair is the last guard).
 */
@Injectable()
export class SwipesService {
  constructor(
    private readonly swipes: SwipesRepository,
    private readonly outbox: OutboxService,
    private readonly notifier: MatchNotifier,
    private readonly suggestions: SuggestionsService,
    private readonly matchGate: MatchGate,
    private readonly reads: ReadReplica,
  ) {}

  /**
   * Idempotent: a repeated like answers as the pair stands now (matched once the match exists).
   * Refused for oneself, an unknown member (404), a member already passed (the card is gone;
   * rewind brings it back), and with one answer for a member who is not suggestible, outside
   * the rules either way, suspended (a repeat too), or in a blocked pair with the liker (whoever
   * blocked): the liker learns
   * that they cannot like this person, not why.
   * One statement under the pair's lock (LIKE_SQL), the lock, the statement and the commit in one
   * round trip (onceUnderPairLock: a refused like writes nothing, so it may commit before it is
   * read); when the answer is a match, the pair gate opens after the commit (one Redis round trip,
   * ADR 0029), then new_match is pushed and the like answers.
   */
  async like(viewerId: string, targetId: string): Promise<LikeResultDto> {
    if (viewerId === targetId) throw badRequest(MatchingMessages.likeSelf, MatchingErrorCode.LikeSelf);
    const [a, b] = ordered(viewerId, targetId);
    // The outbox rows are built here and written by the statement only if it inserts the like
    // (like.created, `matched` filled in there) and makes the match (match.created). No consumer
    // waits for them (new_match is pushed below), so the relay's poll takes them in batches
    // rather than one relay pass, two more statements, per like.
    const matchId = randomUUID();
    const now = new Date();
    const likeEvent = this.outbox.factRowToComplete<'like.created', LikeCreatedByStatement>('like.created', {
      likerId: viewerId,
      likedId: targetId,
      createdAt: now.toISOString(),
    });
    const matchEvent = this.outbox.factRowToComplete<'match.created', MatchCreatedByStatement>('match.created', {
      matchId,
      userIds: [a, b],
      createdAt: now.toISOString(),
    });
    const answer = await this.swipes.recordLike({ viewerId, targetId, matchId, at: now, likeEvent, matchEvent });
    // A blocked pair: one answer whatever was swiped before (a pass is not "rewind first").
    if (answer.blocked) throw this.refusedBlocked(answer.suggestible !== null);
    // A suspended member answers as unavailable whatever was swiped before (issue 13).
    if (answer.suspended) throw badRequest(MatchingMessages.notSuggestible, MatchingErrorCode.NotSuggestible);
    if (answer.previous === false) throw badRequest(MatchingMessages.alreadyPassed, MatchingErrorCode.AlreadyPassed);
    let row = answer;
    if (answer.previous === null && !answer.inserted) {
      if (answer.suggestible === null) throw notFound(MatchingMessages.memberNotFound, MatchingErrorCode.MemberNotFound);
      if (!answer.fits) throw badRequest(MatchingMessages.notSuggestible, MatchingErrorCode.NotSuggestible);
      row = await this.raced(viewerId, targetId);
    }
    // The member's next suggestions read the primary until the replica has this like (ADR 0033).
    const remembered = this.reads.wrote(viewerId);
    // Before the answer and the pushes: whoever learns of the match can use it at once (ADR 0029).
    if (row.match_id && row.matched_at) {
      await this.matchGate.open(a, b, { matchId: row.match_id, matchedAt: row.matched_at, pairVersion: row.pair_version });
    }
    if (row.made) {
      const find = (id: string): MatchMember =>
        row.members?.find((m) => m.id === id) ?? { id, name: null, profilePicture: null };
      await this.notifier.newMatch({ matchId, matchedAt: now, members: [find(a), find(b)] });
    }
    await remembered;
    return row.match_id ? { matched: true, matchId: row.match_id } : { matched: false };
  }

  /**
   * Records a pass so the member stops coming back. Refused for oneself and unknown members, and
   * with the like's answer for a member of a blocked pair or a suspended member (no swipe is
   * written for a pair that cannot meet); a repeated pass changes nothing, and a pass on someone already liked leaves the
   * like standing.
   * Takes the pair's lock like a like does, so a like and a pass of one pair never interleave, and
   * locks the target's row against their erasure as the like does (LIKE_SQL). One round trip as the
   * like (a refused pass writes nothing).
   */
  async pass(viewerId: string, targetId: string): Promise<PassResultDto> {
    if (viewerId === targetId) throw badRequest(MatchingMessages.passSelf, MatchingErrorCode.PassSelf);
    // pass.created is written by the statement only if it inserts the pass (a fact; analytics counts swipes).
    const passEvent = this.outbox.factRow('pass.created', {
      passerId: viewerId,
      passedId: targetId,
      createdAt: new Date().toISOString(),
    });
    const passed = await this.swipes.recordPass(viewerId, targetId, passEvent);
    if (!passed.known) throw notFound(MatchingMessages.memberNotFound, MatchingErrorCode.MemberNotFound);
    if (passed.blocked) throw this.refusedBlocked(true);
    // A suspended member is unavailable (issue 13): the like's answer, and no swipe is written.
    if (passed.suspended) throw badRequest(MatchingMessages.notSuggestible, MatchingErrorCode.NotSuggestible);
    await this.reads.wrote(viewerId);
    return { passed: true };
  }

  /**
   * Undoes the member's latest pass on someone who still fits (suggestible, within the rules both
   * ways; likes are never rewound) and answers that member's card. Passes on members who have
   * since left the rules stay: rewinding them would show a card Discover may no longer show, and a
   * pass followed by a rewind would otherwise be a way to read anyone's current profile.
   */
  async rewind(viewerId: string): Promise<SuggestionDto> {
    const targetId = await this.swipes.rewindLatestPass(viewerId);
    if (targetId) await this.reads.wrote(viewerId);
    const card = targetId ? await this.suggestions.card(viewerId, targetId) : null;
    if (!card) throw notFound(MatchingMessages.nothingToRewind, MatchingErrorCode.NothingToRewind);
    return card;
  }

  /**
   * The refusal of a like or a pass between a blocked pair (issue 10): the answer of a member who
   * is not available for matching, the same whoever blocked whom (404 when matching does not know
   * the member at all, as for any unknown id).
   */
  private refusedBlocked(known: boolean) {
    return known
      ? badRequest(MatchingMessages.notSuggestible, MatchingErrorCode.NotSuggestible)
      : notFound(MatchingMessages.memberNotFound, MatchingErrorCode.MemberNotFound);
  }

  /**
   * The answer to a like of a pair that fits but whose insert met a swipe written meanwhile without
   * the pair lock (an older replica mid-deploy, a seeder): a pass stands (rewind first), a like
   * repeats as the pair stands now (read after the like's commit: the swipe it met is committed).
   */
  private async raced(viewerId: string, targetId: string): Promise<LikeRow> {
    const standing = await this.swipes.standingSwipe(viewerId, targetId);
    if (!standing?.liked) throw badRequest(MatchingMessages.alreadyPassed, MatchingErrorCode.AlreadyPassed);
    const { match_id, matched_at, pair_version } = standing;
    return {
      previous: true,
      suggestible: true,
      fits: true,
      suspended: false,
      blocked: false,
      inserted: false,
      made: false,
      match_id,
      matched_at,
      pair_version,
      members: null,
    };
  }
}
