import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER, RealtimeEmitter } from '@mate/server-kit';

/** A match just made, with what each side's popup shows of the other. */
export interface NewMatch {
  matchId: string;
  matchedAt: Date;
  members: [MatchMember, MatchMember];
}
/** What the other side's popup shows of a member: who, by name and primary photo. */
export interface MatchMember {
  id: string;
  name: string | null;
  profilePicture: string | null;
}

/**
 * Tells both members of a new match at once (`new_match` to each member's room, ARCHITECTURE §3),
 * each with the OTHER member, so both apps can show 'It's a Match!' without reloading. Called
 * after the match is committed; a push is ephemeral by design (a member who misses it still sees
 * the match in their list), so a Redis failure is logged, not thrown at the liker.
 */
@Injectable()
export class MatchNotifier {
  constructor(
    private readonly realtime: RealtimeEmitter,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async newMatch({ matchId, matchedAt, members }: NewMatch): Promise<void> {
    const [a, b] = members;
    const pushes = [
      [a, b],
      [b, a],
    ].map(([to, other]) =>
      this.realtime
        .toUser(to.id)
        .emit('new_match', { matchId, user: other, matchedAt: matchedAt.toISOString() }),
    );
    for (const result of await Promise.allSettled(pushes)) {
      if (result.status === 'rejected')
        this.logger.warn({ err: result.reason, matchId }, 'new_match push failed');
    }
  }
}
