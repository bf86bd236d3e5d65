import { Inject, Injectable } from '@nestjs/common';
import { MatchingMessages } from '@mate/contracts';
import { MemberLimits, REDIS, type CountedKind, type RateLimitRule, type RedisClient } from '@mate/server-kit';
import { MatchingEnv } from '../matching.env';

/**
 * Per-member limits of Discover, shared by every replica through Redis (the gateway's per-address
 * limit does not stop one account from a script). A person swipes at most about once a second
 * (each card leaves in 300 ms and must be looked at first), so 100 a minute is never reached by
 * hand, and 3,000 a day is an hour of non-stop swiping; past that it is a bot liking everyone.
 * Every like, pass and rewind counts, refused ones too: probing likes are the attack. A page of
 * suggestions lasts 17 swipes before the app reloads, so 30 loads a minute and 600 a day are far
 * above any person; each load reads the candidate index and writes impressions.
 */
export const MEMBER_RATE_LIMITS = {
  swipesPerMinute: { points: 100, durationSeconds: 60 },
  swipesPerDay: { points: 3_000, durationSeconds: 24 * 60 * 60 },
  suggestionsPerMinute: { points: 30, durationSeconds: 60 },
  suggestionsPerDay: { points: 600, durationSeconds: 24 * 60 * 60 },
} satisfies Record<string, RateLimitRule>;

type MemberRateLimit = keyof typeof MEMBER_RATE_LIMITS;

/** The kinds of request the routes count (`@CountedPerMember(MemberRateLimiter, kind)`), their rules in order and refusal. */
const COUNTED = {
  /** A like, a pass or a rewind. */
  swipe: { rules: ['swipesPerMinute', 'swipesPerDay'], message: MatchingMessages.tooManySwipes },
  /** A load of the suggestions. */
  suggestions: { rules: ['suggestionsPerMinute', 'suggestionsPerDay'], message: MatchingMessages.tooManySuggestions },
} satisfies Record<string, CountedKind<MemberRateLimit>>;

/** The rules with every allowance multiplied by `multiplier` (benchmarks and long tests raise it). */
export function memberRateLimits(multiplier: number): Record<MemberRateLimit, RateLimitRule> {
  const rules = { ...MEMBER_RATE_LIMITS } as Record<MemberRateLimit, RateLimitRule>;
  for (const name of Object.keys(rules) as MemberRateLimit[]) {
    rules[name] = { ...rules[name], points: rules[name].points * multiplier };
  }
  return rules;
}

/**
 * Counts one member's swipes and suggestion loads; past a limit, 429 with Retry-After. The routes
 * are counted by the kit's guard (`@CountedPerMember(MemberRateLimiter, kind)`) in the same Redis
 * call as the session check: one round trip for both; the day's rule is not counted past the
 * minute's limit, as when each was counted on its own.
 */
@Injectable()
export class MemberRateLimiter extends MemberLimits<MemberRateLimit, keyof typeof COUNTED> {
  constructor(@Inject(REDIS) redis: RedisClient, env: MatchingEnv) {
    super(redis, `${env.KEY_PREFIX}:matching`, memberRateLimits(env.MEMBER_RATE_LIMIT_MULTIPLIER), COUNTED);
  }
}
