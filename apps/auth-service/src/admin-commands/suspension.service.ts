import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import { CLOCK, LOGGER, OutboxService, SessionStore, type Clock } from '@mate/server-kit';
import { User } from '../accounts/user.entity';
import { SessionsService } from '../sessions/sessions.service';

/** What a command did: `unchanged` when the account already was in that state, `unknown` when there is none. */
export type CommandOutcome = 'done' | 'unchanged' | 'unknown';

/**
 * Suspension, owned by auth-service (issue 13). A suspended account cannot sign in (403
 * 'This account has been suspended', AccountsService.login) nor get a reset email; its sessions
 * end when it is suspended, which closes its sockets on every gateway. `user.suspended` and
 * `user.unsuspended` tell the other services (matching hides the member, chat and calls refuse
 * them), versioned on the `user` aggregate so a consumer keeps only the newest state.
 *
 * Both commands are idempotent: the same state again changes nothing and publishes nothing.
 */
@Injectable()
export class SuspensionService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly sessions: SessionsService,
    private readonly sessionStore: SessionStore,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async suspend(userId: string, reason: string, adminId: string): Promise<CommandOutcome> {
    const outcome = await this.dataSource.transaction(async (m): Promise<CommandOutcome> => {
      // Locked: a second command on the account waits, and the event's version follows the row's state.
      const user = await m.findOne(User, { where: { id: userId }, lock: { mode: 'pessimistic_write' } });
      if (!user) return 'unknown';
      if (!user.suspendedAt) {
        const suspendedAt = this.clock.now();
        await m.update(User, { id: userId }, { suspendedAt, suspensionReason: reason });
        await this.outbox.publish(m, 'user.suspended', {
          userId,
          suspended: true,
          reason,
          suspendedAt: suspendedAt.toISOString(),
        });
      }
      // Ended before the commit (Redis down: nothing changes and the job is retried), and on an
      // account already suspended too: a run that committed and then failed to end them is retried.
      await this.sessions.endAll(userId, undefined, m);
      return user.suspendedAt ? 'unchanged' : 'done';
    });
    if (outcome === 'unknown') {
      this.logger.info({ userId, adminId }, 'suspend: no such account');
      return outcome;
    }
    // Again after the commit, for a sign-in whose session went live in between (SessionsService.start).
    await this.sessionStore.revokeAllForUser(userId);
    this.logger.info(
      { userId, adminId, outcome },
      outcome === 'done' ? 'account suspended' : 'suspend: account already suspended',
    );
    return outcome;
  }

  async unsuspend(userId: string, adminId: string): Promise<CommandOutcome> {
    const outcome = await this.dataSource.transaction(async (m): Promise<CommandOutcome> => {
      const user = await m.findOne(User, { where: { id: userId }, lock: { mode: 'pessimistic_write' } });
      if (!user) return 'unknown';
      if (!user.suspendedAt) return 'unchanged';
      await m.update(User, { id: userId }, { suspendedAt: null, suspensionReason: null });
      await this.outbox.publish(m, 'user.unsuspended', {
        userId,
        suspended: false,
        unsuspendedAt: this.clock.now().toISOString(),
      });
      return 'done';
    });
    const message = {
      done: 'account unsuspended',
      unchanged: 'unsuspend: account not suspended',
      unknown: 'unsuspend: no such account',
    }[outcome];
    this.logger.info({ userId, adminId, outcome }, message);
    return outcome;
  }
}
