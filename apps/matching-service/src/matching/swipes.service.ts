import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  MatchingMessages,
  type LikeResultDto,
  type PassResultDto,
  type SuggestionDto,
} from '@mate/contracts';
import { badRequest, notFound, OutboxService } from '@mate/server-kit';
import { CandidateQuery } from '../candidates/candidate-query';
import { mutualRulesSql } from '../candidates/candidate-rules';
import { Swipe } from '../swipes/swipe.entity';
import { MatchNotifier, type MatchMember, type NewMatch } from './match-notifier';
import { SuggestionsService } from './suggestions.service';

/** The pair in the order the match table stores it (user_a < user_b). */
const ordered = (x: string, y: string): [string, string] => (x < y ? [x, y] : [y, x]);

/**
 * Likes, passes and rewinds. A like is checked against the same rules as the candidate pool
 * (CandidateQuery.checkPair); a like that meets an earlier like from the other side makes the
 * match. Both likes of a pair take the same pair lock first, so two concurrent mutual likes run
 * one after the other and the second one sees the first: exactly one match, made by whichever
 * commits second (the unique pair is the last guard).
 */
@Injectable()
export class SwipesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly candidates: CandidateQuery,
    private readonly outbox: OutboxService,
    private readonly notifier: MatchNotifier,
    private readonly suggestions: SuggestionsService,
  ) {}

  /**
   * Idempotent: a repeated like answers as the pair stands now (matched once the match exists).
   * Refused for oneself, an unknown member (404), a member already passed (the card is gone;
   * rewind brings it back), and with one answer for a member who is not suggestible or outside
   * the rules either way: the liker learns that they cannot like this person, not why.
   */
  async like(viewerId: string, targetId: string): Promise<LikeResultDto> {
    if (viewerId === targetId) throw badRequest(MatchingMessages.likeSelf);
    const { result, created } = await this.dataSource.transaction(async (manager) => {
      await this.lockPair(manager, viewerId, targetId);
      const previous = await manager.findOneBy(Swipe, { swiperId: viewerId, targetId });
      if (previous) return { result: await this.repeatedLike(manager, previous), created: null };

      const check = await this.candidates.checkPair(viewerId, targetId, manager);
      if (check === 'unknown') throw notFound(MatchingMessages.memberNotFound);
      if (check !== 'fits') throw badRequest(MatchingMessages.notSuggestible);

      // A swipe written meanwhile by a writer without the pair lock (an older replica mid-deploy, a
      // seeder) wins: answer as the pair stands.
      const inserted: unknown[] = await manager.query(
        `INSERT INTO swipe (swiper_id, target_id, liked) VALUES ($1, $2, true)
         ON CONFLICT (swiper_id, target_id) DO NOTHING RETURNING target_id`,
        [viewerId, targetId],
      );
      if (inserted.length === 0) {
        const raced = await manager.findOneByOrFail(Swipe, { swiperId: viewerId, targetId });
        return { result: await this.repeatedLike(manager, raced), created: null };
      }
      const likedBack = await manager.existsBy(Swipe, {
        swiperId: targetId,
        targetId: viewerId,
        liked: true,
      });
      const made = likedBack ? await this.makeMatch(manager, viewerId, targetId) : null;
      await this.outbox.publish(manager, 'like.created', {
        likerId: viewerId,
        likedId: targetId,
        matched: likedBack,
        createdAt: new Date().toISOString(),
      });
      if (made) {
        await this.outbox.publish(manager, 'match.created', {
          matchId: made.matchId,
          userIds: ordered(viewerId, targetId),
          createdAt: made.matchedAt.toISOString(),
        });
      }
      return { result: await this.likeResult(manager, viewerId, targetId), created: made };
    });
    if (created) await this.notifier.newMatch(created);
    return result;
  }

  /**
   * Records a pass so the member stops coming back. Refused for oneself and unknown members; a
   * repeated pass changes nothing, and a pass on someone already liked leaves the like standing.
   * Takes the pair's lock like a like does, so a like and a pass of one pair never interleave.
   */
  async pass(viewerId: string, targetId: string): Promise<PassResultDto> {
    if (viewerId === targetId) throw badRequest(MatchingMessages.passSelf);
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.candidates.find(targetId, manager))) throw notFound(MatchingMessages.memberNotFound);
      await this.lockPair(manager, viewerId, targetId);
      await manager.query(
        'INSERT INTO swipe (swiper_id, target_id, liked) VALUES ($1, $2, false) ON CONFLICT (swiper_id, target_id) DO NOTHING',
        [viewerId, targetId],
      );
    });
    return { passed: true };
  }

  /**
   * Undoes the member's latest pass on someone who still fits (suggestible, within the rules both
   * ways; likes are never rewound) and answers that member's card. Passes on members who have
   * since left the rules stay: rewinding them would show a card Discover may no longer show, and a
   * pass followed by a rewind would otherwise be a way to read anyone's current profile.
   */
  async rewind(viewerId: string): Promise<SuggestionDto> {
    const rows: { target_id: string }[] = await this.dataSource.query(
      // A SELECT around the DELETE, so the driver answers the rows (not a DELETE's row count).
      `WITH rewound AS (
         DELETE FROM swipe WHERE swiper_id = $1 AND NOT liked AND target_id = (
           SELECT s.target_id FROM swipe s
             JOIN candidate v ON v.user_id = s.swiper_id
             JOIN candidate c ON c.user_id = s.target_id
           WHERE s.swiper_id = $1 AND NOT s.liked AND ${mutualRulesSql('v', 'c')}
           ORDER BY s.created_at DESC LIMIT 1)
         RETURNING target_id)
       SELECT target_id FROM rewound`,
      [viewerId],
    );
    const targetId = rows[0]?.target_id;
    const card = targetId ? await this.suggestions.card(viewerId, targetId) : null;
    if (!card) throw notFound(MatchingMessages.nothingToRewind);
    return card;
  }

  /** Serialises everything done to one pair, whichever side acts (a transaction-scoped lock). */
  private async lockPair(manager: EntityManager, x: string, y: string): Promise<void> {
    const [a, b] = ordered(x, y);
    await manager.query(
      `SELECT pg_advisory_xact_lock(hashtextextended('matching-pair:' || $1 || ':' || $2, 0))`,
      [a, b],
    );
  }

  /** The answer to a like of a pair already swiped: a pass stands (rewind first), a like repeats. */
  private async repeatedLike(manager: EntityManager, previous: Swipe): Promise<LikeResultDto> {
    if (!previous.liked) throw badRequest(MatchingMessages.alreadyPassed);
    return this.likeResult(manager, previous.swiperId, previous.targetId);
  }

  private async likeResult(manager: EntityManager, x: string, y: string): Promise<LikeResultDto> {
    const [a, b] = ordered(x, y);
    const [match]: { id: string }[] = await manager.query(
      'SELECT id FROM match WHERE user_a = $1 AND user_b = $2',
      [a, b],
    );
    return match ? { matched: true, matchId: match.id } : { matched: false };
  }

  /** The match of the pair, or null when it existed already (then nobody is told twice). */
  private async makeMatch(manager: EntityManager, x: string, y: string): Promise<NewMatch | null> {
    const [a, b] = ordered(x, y);
    const [made]: { id: string; created_at: Date }[] = await manager.query(
      `INSERT INTO match (user_a, user_b) VALUES ($1, $2) ON CONFLICT (user_a, user_b) DO NOTHING RETURNING id, created_at`,
      [a, b],
    );
    if (!made) return null;
    const members: MatchMember[] = await manager.query(
      `SELECT user_id AS id, name, profile_picture AS "profilePicture"
       FROM candidate WHERE user_id IN ($1, $2) ORDER BY user_id`,
      [a, b],
    );
    const find = (id: string): MatchMember =>
      members.find((m) => m.id === id) ?? { id, name: null, profilePicture: null };
    return { matchId: made.id, matchedAt: made.created_at, members: [find(a), find(b)] };
  }
}
