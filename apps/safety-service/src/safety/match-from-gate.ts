import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { lockMembersAgainstErasure, PairGate, pairGateMatch } from '@mate/server-kit';
import { PairsRepository } from './pairs.repository';

/**
 * The pair's match when `match.created` has not reached safety yet (docs/adr/0029-match-propagation.md):
 * matching opens the pair gate with the match's id, time and pair version after its commit and
 * before the like answers. An unmatch (or a block, which names the match it ends) of a pair whose
 * row holds no match asks here, under the pair's lock: the match is recorded exactly as the event
 * records it (PairsRepository.recordMatch: never for a blocked pair, the match that ended, or a
 * match older than the pair's newest event), and the event, when it arrives, changes nothing.
 */
@Injectable()
export class MatchFromGate {
  constructor(
    private readonly gate: PairGate,
    private readonly pairs: PairsRepository,
  ) {}

  /** Records the gate's match of the pair; answers whether the gate named one (then lock the pair again). */
  async record(manager: EntityManager, x: string, y: string): Promise<boolean> {
    const match = pairGateMatch(await this.gate.read(x, y));
    // An erased member's pair is not written back (the kit's consumer drops its late event too).
    if (!match || (await lockMembersAgainstErasure(manager, [x, y]))) return false;
    await this.pairs.recordMatch(manager, x, y, match.matchId, match.matchedAt, match.pairVersion);
    return true;
  }
}
