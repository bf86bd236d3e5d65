import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SafetyErrorCode, SafetyMessages, type UnmatchResultDto } from '@mate/contracts';
import { badRequest, CLOCK, notFound, OutboxService, PairGate, type Clock } from '@mate/server-kit';
import { MatchFromGate } from './match-from-gate';
import { pairState, PairsRepository } from './pairs.repository';

/**
 * Unmatch (spec 000 §4): ends the pair's current match (the one match.created told safety of, or
 * the pair gate named before its event arrived: ADR 0029) and
 * publishes match.ended with the pair's whole block state, in one transaction under the pair's
 * row lock. A second unmatch finds no match: 404.
 *
 * After the commit and before the answer the pair gate closes at the pair's version (ADR 0024), so
 * chat and calls refuse the pair from the moment the unmatch has answered. A 404 for a pair safety
 * knows closes it too, at the version it has: the truth either way, and the retry of an unmatch whose
 * gate write failed (503) after its commit lands there.
 */
@Injectable()
export class UnmatchService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pairs: PairsRepository,
    private readonly outbox: OutboxService,
    private readonly gate: PairGate,
    private readonly fromGate: MatchFromGate,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async unmatch(memberId: string, otherId: string): Promise<UnmatchResultDto> {
    if (memberId === otherId) throw badRequest(SafetyMessages.unmatchSelf, SafetyErrorCode.UnmatchSelf);
    const outcome = await this.dataSource.transaction(async (manager) => {
      let pair = await this.pairs.lockExisting(manager, memberId, otherId);
      // A match whose like answered a moment ago, before its match.created arrived (ADR 0029).
      if (!pair?.matchId && (await this.fromGate.record(manager, memberId, otherId))) {
        pair = await this.pairs.lockExisting(manager, memberId, otherId);
      }
      if (!pair) return null;
      if (!pair.matchId) return { result: null, version: await this.pairs.version(manager, pair) };
      const at = this.clock.now();
      await this.pairs.endMatch(manager, pair, memberId, at);
      const event = await this.outbox.publish(manager, 'match.ended', {
        ...pairState(pair, pair.blockedBy),
        matchId: pair.matchId,
        endedBy: memberId,
        reason: 'unmatch',
        endedAt: at.toISOString(),
      });
      const result: UnmatchResultDto = { unmatched: true, matchId: pair.matchId };
      return { result, version: event.aggregateVersion ?? (await this.pairs.version(manager, pair)) };
    });
    if (outcome && outcome.version > 0) await this.gate.close(memberId, otherId, outcome.version);
    if (!outcome?.result) throw notFound(SafetyMessages.notMatched, SafetyErrorCode.NothingToUnmatch);
    return outcome.result;
  }
}
