/**
 * Where a suggestions request starts walking the candidate pool (0 ≤ start < 1): random in
 * production, so each load samples other members; a test provides a fixed one to show that the
 * same data gives the same ranking.
 */
export const POOL_START = Symbol('POOL_START');
export type PoolStart = () => number;
export const randomPoolStart: PoolStart = () => Math.random();
