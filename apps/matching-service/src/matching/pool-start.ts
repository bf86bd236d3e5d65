/**
 * Where a suggestions request starts walking the candidate pool (0 ≤ start < 1): random in
 * production, so each load samples other members; fixed in the matching test bed, so the same
 * data gives the same pools and ranking and a failing test replays.
 */
export const POOL_START = Symbol('POOL_START');
/** Gives the start of one request's walk through the pool. */
export type PoolStart = () => number;
/** Production's start: a fresh random one per request. */
export const randomPoolStart: PoolStart = () => Math.random();
