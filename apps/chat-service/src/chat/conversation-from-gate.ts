import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { orderedPairOf, type ChatErrorCode } from '@mate/contracts';
import { AppException, lockMembersAgainstErasure, PairGate, pairGateMatch } from '@mate/server-kit';
import { ConversationsService } from './conversations.service';
import { PairRepository } from './pair.repository';

/**
 * A match chat has not heard of yet, taken from the pair gate (docs/adr/0029-match-propagation.md).
 * Matching opens the gate with the match's id, time and pair version after its commit and before the
 * like answers, while `match.created` takes the relay's poll and a queue hop to arrive. When a send,
 * a page or typing finds no open conversation for the pair, the caller asks here: the conversation
 * is written exactly as the event's handler writes it (OPEN_MATCH_SQL under the pair's lock, so the
 * projection's rules decide: a blocked pair, an ended match or a newer pair event leave it closed),
 * and the event, when it arrives, finds the same match and changes nothing. Like the event, it is
 * dropped when either member has been erased here (the gate's entry outlives an erasure by up to a day).
 *
 * Only the refusal path reads here, so an open conversation costs nothing more. A failing gate read
 * rejects (503 for the caller), as every gate read does.
 */
@Injectable()
export class ConversationFromGate {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pairs: PairRepository,
    private readonly gate: PairGate,
    private readonly conversations: ConversationsService,
  ) {}

  /**
   * Records the match the gate names for the pair, if it names one. Answers whether it did: then the
   * caller tries once more (the conversation may still be closed, by the projection's rules).
   */
  async recordMatch(x: string, y: string): Promise<boolean> {
    if (x === y) return false;
    const match = pairGateMatch(await this.gate.read(x, y));
    if (!match) return false;
    const [a, b] = orderedPairOf(x, y);
    const open = await this.dataSource.transaction(async (manager) => {
      // An erased member's match is not brought back (the kit's consumer drops its late event too).
      if (await lockMembersAgainstErasure(manager, [a, b])) return null;
      return this.pairs.recordMatch(manager, {
        matchId: match.matchId,
        a,
        b,
        matchedAt: match.matchedAt,
        pairVersion: match.pairVersion,
      });
    });
    if (open !== null) this.conversations.pairChanged(a, b, open);
    return true;
  }

  /**
   * Runs `action`; when it is refused because the pair has no open conversation (`refused`), records
   * the gate's match and runs it once more. Any other failure, or no match in the gate, stands.
   */
  async orFromGate<T>(
    x: string,
    y: string,
    refused: (e: unknown) => boolean,
    action: () => Promise<T>,
  ): Promise<T> {
    try {
      return await action();
    } catch (e) {
      if (!refused(e) || !(await this.recordMatch(x, y))) throw e;
      return action();
    }
  }
}

/** A refusal with this code, the predicate orFromGate takes. */
export const refusedWith =
  (code: ChatErrorCode) =>
  (e: unknown): boolean =>
    e instanceof AppException && e.code === code;
