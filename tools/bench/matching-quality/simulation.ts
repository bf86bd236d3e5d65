// The matching-quality simulation: each ranking method runs its own world, where every member is
// shown the top 20 of their pool each round and swipes by hidden taste; a like of someone who
// already liked you is a match. All worlds start from the same random swipe history (what the
// seeder gives a fresh installation), so the model has something to learn from in round one.
import { HiddenTastes } from '../../seed/lib/taste.cjs';
import {
  fitModel,
  gini,
  rankPool,
  ScoringModel,
  SeededRandom,
  type FitMetrics,
  type MemberStats,
  type SwipeRecord,
} from '@mate/matching-model';
import type { SimMember } from './population';

export const PAGE = 20;

/** One method's world: its swipes, likes, exposure and matches. */
export class World {
  readonly swiped = new Map<string, Set<string>>();
  readonly likes = new Set<string>();
  readonly records: SwipeRecord[] = [];
  /** Impressions per member, one map per round (rounds only, not the shared history). */
  readonly impressionsByRound: Map<string, number>[] = [];
  shown = 0;
  liked = 0;
  matches = 0;

  constructor(members: readonly SimMember[]) {
    for (const m of members) this.swiped.set(m.userId, new Set());
  }

  /** Records a swipe; returns whether it made a match. */
  swipe(a: string, b: string, liked: boolean): boolean {
    this.swiped.get(a)?.add(b);
    this.records.push({ swiperId: a, targetId: b, liked });
    if (!liked) return false;
    this.likes.add(`${a}>${b}`);
    return this.likes.has(`${b}>${a}`);
  }

  copy(members: readonly SimMember[]): World {
    const w = new World(members);
    for (const r of this.records) w.swipe(r.swiperId, r.targetId, r.liked);
    return w;
  }

  /** Impressions of a member in this round and the one before (the ranking's "recent exposure"). */
  recent(userId: string): number {
    const n = this.impressionsByRound.length;
    return (
      (this.impressionsByRound[n - 1]?.get(userId) ?? 0) + (this.impressionsByRound[n - 2]?.get(userId) ?? 0)
    );
  }

  impressionCounts(members: readonly SimMember[]): number[] {
    return members.map((m) =>
      this.impressionsByRound.reduce((s, round) => s + (round.get(m.userId) ?? 0), 0),
    );
  }
}

/** Orders a member's remaining pool, best first. */
export interface Method {
  name: string;
  /** Called before each round (the model refits here). */
  prepare(world: World, round: number): void;
  order(viewer: SimMember, pool: SimMember[], world: World, rng: SeededRandom): SimMember[];
}

function shuffled<T>(list: readonly T[], rng: SeededRandom): T[] {
  const order = rng.shuffle(Uint32Array.from(list, (_, i) => i));
  return Array.from(order, (i) => list[i]);
}

/** Random order: the floor any ranking must beat. */
export const randomOrder: Method = {
  name: 'random',
  prepare: () => undefined,
  order: (_viewer, pool, _world, rng) => shuffled(pool, rng),
};

/** The obvious heuristic: most shared interests first (ties in random order). */
export const sharedInterests: Method = {
  name: 'shared interests',
  prepare: () => undefined,
  order: (viewer, pool, _world, rng) => {
    const shared = (b: SimMember) => b.interests.filter((i) => viewer.interests.includes(i)).length;
    return shuffled(pool, rng)
      .map((b) => ({ b, s: shared(b) }))
      .sort((x, y) => y.s - x.s)
      .map(({ b }) => b);
  },
};

/** The scoring model as the service runs it: refitted on the world's swipes before each round. */
export function scoringModel(members: readonly SimMember[]): Method & { fits: FitMetrics[] } {
  const profiles = new Map(members.map((m) => [m.userId, m]));
  const byId = profiles;
  let model = ScoringModel.prior();
  let stats = new Map<string, MemberStats>();
  const fits: FitMetrics[] = [];
  return {
    name: 'model',
    fits,
    prepare(world, round) {
      const fit = fitModel(world.records, profiles, { version: `bench-round-${round}` });
      model = new ScoringModel(fit.params);
      stats = fit.stats;
      fits.push(fit.metrics);
    },
    order(viewer, pool, world) {
      const likedViewer = new Set(
        pool.filter((b) => world.likes.has(`${b.userId}>${viewer.userId}`)).map((b) => b.userId),
      );
      const recentImpressions = new Map(pool.map((b) => [b.userId, world.recent(b.userId)]));
      return rankPool(model, viewer, pool, { stats, likedViewer, recentImpressions }).map(
        (r) => byId.get(r.userId) as SimMember,
      );
    },
  };
}

/**
 * The oracle: ranks by the hidden tastes themselves, the reference the other methods are measured
 * against. For viewer A, candidate B scores the chance the pair becomes a match if A is shown B:
 * P(A likes B) · P(B likes A), or P(A likes B) alone when B already liked A in this world. It knows
 * the probabilities, not the draws, so it can still be unlucky; and it ranks each viewer greedily
 * (no exposure control), so it is a reference, not a proven optimum.
 */
export function oracle(tastes: HiddenTastes): Method {
  return {
    name: 'oracle',
    prepare: () => undefined,
    order(viewer, pool, world) {
      const matchChance = (b: SimMember) =>
        tastes.likeProbability(viewer, b) *
        (world.likes.has(`${b.userId}>${viewer.userId}`) ? 1 : tastes.likeProbability(b, viewer));
      return pool
        .map((b) => ({ b, p: matchChance(b) }))
        .sort((x, y) => y.p - x.p)
        .map(({ b }) => b);
    },
  };
}

/** The random swipe history every world starts from: each member swipes `count` of their pool. */
export function history(
  members: readonly SimMember[],
  pools: ReadonlyMap<string, SimMember[]>,
  tastes: HiddenTastes,
  seed: string,
  count: number,
): World {
  const world = new World(members);
  const rng = new SeededRandom(`history:${seed}`);
  for (const m of members) {
    for (const b of shuffled(pools.get(m.userId) ?? [], rng).slice(0, count))
      world.swipe(m.userId, b.userId, tastes.likes(m, b));
  }
  return world;
}

/** One round in a method's world: every member, in a random order, is shown a page and swipes it. */
export function playRound(
  method: Method,
  world: World,
  members: readonly SimMember[],
  pools: ReadonlyMap<string, SimMember[]>,
  tastes: HiddenTastes,
  rng: SeededRandom,
): void {
  const round = new Map<string, number>();
  world.impressionsByRound.push(round);
  for (const viewer of shuffled(members, rng)) {
    const seen = world.swiped.get(viewer.userId) ?? new Set();
    const pool = (pools.get(viewer.userId) ?? []).filter((b) => !seen.has(b.userId));
    for (const b of method.order(viewer, pool, world, rng).slice(0, PAGE)) {
      round.set(b.userId, (round.get(b.userId) ?? 0) + 1);
      world.shown++;
      const liked = tastes.likes(viewer, b);
      if (liked) world.liked++;
      if (world.swipe(viewer.userId, b.userId, liked)) world.matches++;
    }
  }
}

/** What a method achieved over the rounds. */
export interface MethodResult {
  method: string;
  shown: number;
  likes: number;
  matches: number;
  /** Matches per suggestion shown. */
  mutualMatchRate: number;
  /** Gini coefficient of impressions per member. */
  gini: number;
}

export function resultOf(method: Method, world: World, members: readonly SimMember[]): MethodResult {
  return {
    method: method.name,
    shown: world.shown,
    likes: world.liked,
    matches: world.matches,
    mutualMatchRate: world.shown > 0 ? world.matches / world.shown : 0,
    gini: gini(world.impressionCounts(members)),
  };
}
