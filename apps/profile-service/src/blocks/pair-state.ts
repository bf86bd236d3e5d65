import type { PairState } from '@mate/contracts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A pair event's state as the projection stores it: the two ids ascending and who blocks whom. */
export interface PairBlockState {
  userA: string;
  userB: string;
  /** Members of the pair who block the other, each once (empty: neither). */
  blockedBy: string[];
}

/**
 * Reads the whole state a pair event carries (user.blocked, user.unblocked, match.ended). The ids
 * are lower-cased (PostgreSQL reads a uuid in any case; one member must be one pair) and ordered
 * here rather than trusted; `blockedBy` keeps only members of the pair. A payload without two
 * distinct member ids throws, so its job fails and is kept for redrive instead of changing
 * another pair.
 */
export function pairBlockStateOf(state: PairState): PairBlockState {
  const ids = Array.isArray(state.userIds)
    ? state.userIds.map((id) => (typeof id === 'string' ? id.toLowerCase() : ''))
    : [];
  if (ids.length !== 2 || !ids.every((id) => UUID.test(id)) || ids[0] === ids[1]) {
    throw new Error(`pair event ${String(state.pairId)} does not name two members`);
  }
  const [userA, userB] = ids[0] < ids[1] ? [ids[0], ids[1]] : [ids[1], ids[0]];
  const named = Array.isArray(state.blockedBy)
    ? state.blockedBy.map((id) => (typeof id === 'string' ? id.toLowerCase() : ''))
    : [];
  return { userA, userB, blockedBy: [userA, userB].filter((id) => named.includes(id)) };
}
