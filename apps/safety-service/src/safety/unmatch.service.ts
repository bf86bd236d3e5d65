import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SafetyMessages, type UnmatchResultDto } from '@mate/contracts';
import { badRequest, CLOCK, notFound, OutboxService, type Clock } from '@mate/server-kit';
import { pairState, PairsRepository } from './pairs.repository';

/**
 * Unmatch (spec 000 §4): ends the pair's current match (the one match.created told safety of) and
 * publishes match.ended with the pair's whole block state, in one transaction under the pair's
 * row lock. A second unmatch finds no match: 404.
 */
@Injectable()
export class UnmatchService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pairs: PairsRepository,
    private readonly outbox: OutboxService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async unmatch(memberId: string, otherId: string): Promise<UnmatchResultDto> {
    if (memberId === otherId) throw badRequest(SafetyMessages.unmatchSelf);
    return this.dataSource.transaction(async (manager) => {
      const pair = await this.pairs.lockExisting(manager, memberId, otherId);
      if (!pair?.matchId) throw notFound(SafetyMessages.notMatched);
      const at = this.clock.now();
      await this.pairs.endMatch(manager, pair, memberId, at);
      await this.outbox.publish(manager, 'match.ended', {
        ...pairState(pair, pair.blockedBy),
        matchId: pair.matchId,
        endedBy: memberId,
        reason: 'unmatch',
        endedAt: at.toISOString(),
      });
      return { unmatched: true, matchId: pair.matchId };
    });
  }
}
