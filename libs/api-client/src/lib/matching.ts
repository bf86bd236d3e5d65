import {
  LIKES_RECEIVED_PAGE_SIZE,
  MatchingMessages,
  SUGGESTIONS_PAGE_SIZE,
  type LikesReceivedDto,
  type LikeResultDto,
  type MatchDto,
  type MatchStatsDto,
  type PassResultDto,
  type RewindResultDto,
  type SuggestionDto,
} from '@mate/contracts';
import type { HttpClient } from './http';
import { ClientMessages } from './messages';

export interface MatchingApi {
  /** GET /api/matches/suggestions?limit=N (spec 000 §7): the Discover queue, best first. */
  getSuggestions(limit?: number): Promise<SuggestionDto[]>;
  /** POST /api/matches/like/{userId}: `matched` when the other member liked back (spec 000 §3). */
  like(userId: string): Promise<LikeResultDto>;
  /**
   * POST /api/matches/pass/{userId}. The spec's client made no call for a pass; ours records it so
   * passed people stop coming back (issue 8).
   */
  pass(userId: string): Promise<PassResultDto>;
  /** POST /api/matches/rewind: undoes the last pass and answers the card to put back on top. */
  rewind(): Promise<RewindResultDto>;
  /** GET /api/matches/my-matches, newest first. */
  getMyMatches(): Promise<MatchDto[]>;
  /** GET /api/matches/stats: the dashboard's numbers. */
  getMatchStats(): Promise<MatchStatsDto>;
  /**
   * GET /api/matches/likes-received?limit=&offset= (issue 25): the members who liked this one and
   * whom they have not answered, newest first, and how many in all. Answered with like and pass.
   */
  likesReceived(page?: { limit?: number; offset?: number }): Promise<LikesReceivedDto>;
}

const memberPath = (action: 'like' | 'pass', userId: string) =>
  `/api/matches/${action}/${encodeURIComponent(userId)}`;

export function createMatchingApi(http: HttpClient): MatchingApi {
  return {
    async getSuggestions(limit = SUGGESTIONS_PAGE_SIZE) {
      const body = await http.get<unknown>('/api/matches/suggestions', {
        query: { limit },
        cache: 'no-store',
        fallbackMessage: MatchingMessages.suggestionsFailed,
      });
      return Array.isArray(body) ? (body as SuggestionDto[]) : [];
    },
    async like(userId) {
      const body = await http.post<Partial<LikeResultDto> | undefined>(memberPath('like', userId), {
        fallbackMessage: MatchingMessages.likeFailed,
      });
      const matched = body?.matched === true;
      return matched && typeof body?.matchId === 'string' ? { matched, matchId: body.matchId } : { matched };
    },
    async pass(userId) {
      await http.post<unknown>(memberPath('pass', userId), { fallbackMessage: ClientMessages.passFailed });
      return { passed: true };
    },
    rewind() {
      return http.post<RewindResultDto>('/api/matches/rewind', { fallbackMessage: ClientMessages.rewindFailed });
    },
    async getMyMatches() {
      const body = await http.get<unknown>('/api/matches/my-matches', {
        cache: 'no-store',
        fallbackMessage: MatchingMessages.matchesFailed,
      });
      return Array.isArray(body) ? (body as MatchDto[]) : [];
    },
    getMatchStats() {
      return http.get<MatchStatsDto>('/api/matches/stats', {
        cache: 'no-store',
        fallbackMessage: ClientMessages.getMatchStatsFailed,
      });
    },
    async likesReceived({ limit = LIKES_RECEIVED_PAGE_SIZE, offset = 0 } = {}) {
      const body = await http.get<Partial<LikesReceivedDto> | undefined>('/api/matches/likes-received', {
        query: { limit, offset },
        cache: 'no-store',
        fallbackMessage: MatchingMessages.likesReceivedFailed,
      });
      const likers = Array.isArray(body?.likers) ? body.likers : [];
      return { total: typeof body?.total === 'number' ? body.total : likers.length, likers };
    },
  };
}
