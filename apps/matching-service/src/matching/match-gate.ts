import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER, PairGate, serviceUnavailable } from '@mate/server-kit';

/** A match as the like's statement answers it: made now or before, under which pair version. */
export interface GatedMatch {
  matchId: string;
  matchedAt: Date;
  pairVersion: number;
}

/**
 * Opens the pair gate for a match (docs/adr/0029-match-propagation.md): after the like's commit and
 * before its answer and its new_match pushes, so from the moment either member can know of the match
 * chat, calls and safety accept the pair, although `match.created` reaches them a moment later. The
 * entry carries the match's id and time (never a member id), and they record the match from it
 * exactly as the event will, which then changes nothing.
 *
 * A failed write is 503 (retryable) although the match is stored: a repeated like answers the match
 * as it stands and writes the gate again (rank equal: only its lifetime is refreshed).
 */
@Injectable()
export class MatchGate {
  constructor(
    private readonly gate: PairGate,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async open(a: string, b: string, { matchId, matchedAt, pairVersion }: GatedMatch): Promise<void> {
    try {
      await this.gate.open(a, b, pairVersion, { matchId, matchedAt });
    } catch (e) {
      // ioredis errors name the command's arguments: the key and value only (no member id), but log the name and message alone.
      const error = e instanceof Error ? { name: e.name, message: e.message } : { message: String(e) };
      this.logger.error({ matchId, error }, 'pair gate not opened; the like answered as unavailable');
      throw serviceUnavailable(e);
    }
  }
}
