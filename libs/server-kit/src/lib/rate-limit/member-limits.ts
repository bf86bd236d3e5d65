import { isClusterClient, memberTag, type RedisClient } from '../redis/redis';
import type { PerMemberLimits } from '../auth/decorators';
import type { AllowanceCounter, WindowCount } from '../auth/session-store';
import type { AppException } from '../errors/app.exception';
import { RateLimits, type RateLimitRule } from './rate-limit';

/** What one kind of a member's request or socket event counts, and the 429 it gets past a limit. */
export interface CountedKind<Rule extends string> {
  /** Counted in this order; past one rule's allowance the rules after it are not counted. */
  rules: readonly Rule[];
  /** The 429's text (the spec's words, from the module's messages object). */
  message: string;
}

/**
 * A service's limits on what a member asks for (docs/conventions.md, "Rate limits"): its rules,
 * shared by every replica through Redis under `prefix` (RateLimits' keys, `<prefix>:rl:<rule>:<id>`,
 * on a cluster `<prefix>:rl:<rule>:{<id>}`),
 * and the kinds it counts, each with its rules and refusal. The kit counts a kind where the request
 * or socket event enters (`@CountedPerMember(Limiter, kind)`); every attempt counts, and past a
 * rule's allowance it is 429 with Retry-After.
 *
 * A service declares its own as a small `@Injectable()` subclass that passes its rules (from its
 * env), kinds and messages to this constructor; the subclass is what `@CountedPerMember` names.
 */
export class MemberLimits<Rule extends string, Kind extends string = string> implements PerMemberLimits {
  private readonly limits: RateLimits<Rule>;
  private readonly ruleNames: readonly Rule[];
  /** On a cluster a counter's key carries the member's hash tag, the slot of their sessions (SessionStore). */
  private readonly cluster: boolean;

  constructor(
    redis: RedisClient,
    prefix: string,
    rules: Record<Rule, RateLimitRule>,
    private readonly counted: Record<Kind, CountedKind<Rule>>,
  ) {
    this.limits = new RateLimits(redis, prefix, rules);
    this.ruleNames = Object.keys(rules) as Rule[];
    this.cluster = isClusterClient(redis);
  }

  counters(kind: string, userId: string, _payload?: unknown): AllowanceCounter[] {
    return this.limits.allowanceCounters(this.countedAs(kind).rules, memberTag(userId, this.cluster));
  }

  refusal(kind: string, counts: readonly WindowCount[]): AppException | null {
    const { rules, message } = this.countedAs(kind);
    return this.limits.refusalOf(rules, counts, message);
  }

  /** Removes every counter of the member, rule after rule (their erasure: the keys contain the id). */
  async forget(userId: string): Promise<void> {
    for (const rule of this.ruleNames) await this.limits.reset(rule, memberTag(userId, this.cluster));
  }

  private countedAs(kind: string): CountedKind<Rule> {
    // A kind no table names is a typo in a decorator: fail loudly rather than count nothing.
    if (!Object.hasOwn(this.counted, kind))
      throw new Error(`No per-member limit '${kind}' in ${this.constructor.name}`);
    return this.counted[kind as Kind];
  }
}
