import type { PhotoDto } from './profile';

/**
 * Matching (issue 8; spec 000 §2 Discover, §3 suggestion and like result, §4 Swipe, §7 API).
 * matching-service owns suggestions, likes, passes, rewinds and matches.
 */

/** Spec 000 §9: 20 suggestions per load; the client reloads when 3 or fewer remain. */
export const SUGGESTIONS_PAGE_SIZE = 20;
export const SUGGESTIONS_MAX_LIMIT = 50;
export const SUGGESTIONS_RELOAD_AT = 3;

/** Spec 000 §9 swipe constants. */
export const SWIPE_THRESHOLD_PX = 100;
export const SWIPE_LABEL_THRESHOLD_PX = 50;
export const SWIPE_EXIT_MS = 300;
export const SWIPE_ROTATION_DIVISOR = 20;
export const SWIPE_OPACITY_RANGE_PX = 500;
/** Spec 000 §2: up to 5 interests on the card, then '+N more'. */
export const CARD_MAX_INTERESTS = 5;

/** The suggested member as spec 000 §3 names it. */
export interface SuggestionUserDto {
  id: string;
  name: string | null;
  age: number | null;
  bio: string | null;
  location: string | null;
  occupation: string | null;
  interests: string[];
  profilePicture: string | null;
}

/**
 * One suggestion: spec 000 §3's `{ user, score }` plus the card's photos and a coarse distance.
 * `score` is the reciprocal match score as a whole percent, 0–100 (shown as 'N% Match').
 * `distance` is a coarse label between city centres ('in your city', 'about 10 km', ...) or null
 * when either side's place is unknown; coordinates never leave matching-service.
 */
export interface SuggestionDto {
  user: SuggestionUserDto;
  score: number;
  photos: PhotoDto[];
  distance: string | null;
}

/** Answer of `POST /api/matches/like/{userId}` (spec 000 §3 "Like result"). */
export interface LikeResultDto {
  matched: boolean;
  /** The match, when `matched`. */
  matchId?: string;
}

/** Answer of `POST /api/matches/pass/{userId}`. */
export interface PassResultDto {
  passed: true;
}

/** Answer of `POST /api/matches/rewind`: the card that returns to the top of the queue. */
export interface RewindResultDto {
  suggestion: SuggestionDto;
}

/** One entry of `GET /api/matches/my-matches`, newest first. */
export interface MatchDto {
  matchId: string;
  userId: string;
  name: string | null;
  profilePicture: string | null;
  matchedAt: string;
}

/** `GET /api/matches/stats`: the dashboard's numbers. */
export interface MatchStatsDto {
  matches: number;
  /** Likes this member has received (from members still on the platform). */
  likesReceived: number;
  likesSent: number;
}

/**
 * `GET /api/matches/likes-received?limit=&offset=` (issue 25, the home screen's "Who liked you"):
 * page size and most per page.
 */
export const LIKES_RECEIVED_PAGE_SIZE = 20;
export const LIKES_RECEIVED_MAX_LIMIT = 50;
export const LIKES_RECEIVED_MAX_OFFSET = 1_000_000;

/**
 * A member who liked the caller and whom the caller has not answered yet: the card's member (the
 * suggestions' enrichment), their photos in display order and when they liked.
 */
export interface LikerDto {
  user: SuggestionUserDto;
  photos: PhotoDto[];
  likedAt: string;
}

/** Answer of `GET /api/matches/likes-received`: how many in all, and one page, newest like first. */
export interface LikesReceivedDto {
  total: number;
  likers: LikerDto[];
}

/** Texts of matching's refusals, shared so the web app and tests name them. */
export const MatchingMessages = {
  likeSelf: "You can't like yourself",
  passSelf: "You can't pass on yourself",
  memberNotFound: 'Member not found',
  /**
   * The one refusal of a like on a member who is not suggestible or outside the mutual rules
   * (either way): a member learns that they cannot like this person, not why (ADR 0012).
   */
  notSuggestible: 'This member is not available for matching',
  nothingToRewind: 'Nothing to rewind',
  alreadyPassed: 'You already passed on this member. Rewind to bring them back.',
  /** 429: one member's likes, passes and rewinds past the per-member limits. */
  tooManySwipes: 'Too many swipes. Please try again later.',
  /** 429: one member's suggestion loads past the per-member limits. */
  tooManySuggestions: 'Too many suggestion requests. Please try again later.',
  /** Spec 000 §8 fallbacks. */
  suggestionsFailed: 'Failed to get match suggestions',
  likeFailed: 'Failed to like user',
  matchesFailed: 'Failed to get matches',
  /** The home screen's "Who liked you" could not be loaded (issue 25). */
  likesReceivedFailed: 'Failed to get who liked you',
  likesReceivedLimit: `limit must be a whole number from 1 to ${LIKES_RECEIVED_MAX_LIMIT}`,
  likesReceivedOffset: `offset must be a whole number from 0 to ${LIKES_RECEIVED_MAX_OFFSET}`,
} as const;

/** Codes of matching's refusals, one per cause (the `code` of `{ error, code }`). */
export enum MatchingErrorCode {
  LikeSelf = 'LIKE_SELF',
  PassSelf = 'PASS_SELF',
  /** No such member (or an id that could be none). */
  MemberNotFound = 'MEMBER_NOT_FOUND',
  /** Not suggestible, suspended, or outside the mutual rules: told the same (ADR 0012). */
  NotSuggestible = 'NOT_SUGGESTIBLE',
  NothingToRewind = 'NOTHING_TO_REWIND',
  AlreadyPassed = 'ALREADY_PASSED',
}

/**
 * Distance as members see it: between city centres, rounded so coarsely that repeated probing
 * from chosen places reveals nothing finer than the other member's city (ARCHITECTURE §5).
 * Under 2 km (the same city centre) reads 'in your city'; then 'about N km' with N rounded up
 * to 10 km below 100 km, to 50 km below 500 km and to 100 km beyond.
 */
export function coarseDistanceLabel(km: number | null | undefined): string | null {
  if (km === null || km === undefined || !Number.isFinite(km) || km < 0) return null;
  if (km < 2) return 'in your city';
  const step = km < 100 ? 10 : km < 500 ? 50 : 100;
  const rounded = Math.max(step, Math.ceil(km / step) * step);
  return `about ${rounded.toLocaleString('en-US')} km`;
}

/** Matching's part of a data export (issue 12; matching-service). */
export interface MatchingExportPart {
  likesGiven: { userId: string; createdAt: string }[];
  passes: { userId: string; createdAt: string }[];
  matches: { matchId: string; userId: string; createdAt: string; endedAt: string | null }[];
  /** How many members liked this one (who they are is theirs to tell). */
  likesReceivedCount: number;
  /** The members Discover showed this one (latest showing of each), with the score they were ranked by. */
  suggestionsShown?: { userId: string; score: number; modelVersion: string; servedAt: string }[];
  /** What the ranking model learned of this member at its last refit, or null before one. */
  rankingProfile?: {
    modelVersion: string;
    likesGiven: number;
    swipesGiven: number;
    likesReceived: number;
    swipesReceived: number;
    taste: number[];
    appeal: number[];
    updatedAt: string;
  } | null;
}
