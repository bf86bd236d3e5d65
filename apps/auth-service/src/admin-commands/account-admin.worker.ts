import { Inject, Injectable } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { QueueName, SERVICES, type AccountAdminCommand } from '@mate/contracts';
import { HealthRegistry, JobWorker, LOGGER, queueWorkerSettings } from '@mate/server-kit';
import { AuthEnv } from '../auth.env';
import { AccountDeletionService } from '../gdpr/account-deletion.service';
import { readAccountAdminCommand } from './account-admin-command';
import { SuspensionService, type CommandOutcome } from './suspension.service';

/**
 * The worker of `jobs.account-admin`: an admin's suspend, unsuspend or delete, which admin-service
 * writes to its outbox in the transaction of the audit entry (issue 13). Each command is
 * idempotent, so the outbox's redelivery and BullMQ's retries (a failed run throws and is retried
 * with the outbox's backoff) do it once; a command that cannot be read is not retried. The log
 * names the admin, never the reason. Off when WORKERS=off (API-only replicas, one-off commands).
 */
@Injectable()
export class AccountAdminWorker extends JobWorker<QueueName.AccountAdmin, CommandOutcome> {
  constructor(
    @Inject(AuthEnv) env: AuthEnv,
    private readonly suspension: SuspensionService,
    private readonly deletion: AccountDeletionService,
    @Inject(LOGGER) logger: Logger,
    health: HealthRegistry,
  ) {
    super(
      queueWorkerSettings(env, { service: SERVICES.auth, queue: QueueName.AccountAdmin, concurrency: 2 }),
      logger,
      health,
    );
  }

  protected async handle(data: AccountAdminCommand): Promise<CommandOutcome> {
    const read = readAccountAdminCommand(data);
    if ('error' in read) throw new UnrecoverableError(`unreadable account command: ${read.error}`);
    const { command } = read;
    switch (command.kind) {
      case 'suspend':
        return this.suspension.suspend(command.userId, command.reason, command.adminId);
      case 'unsuspend':
        return this.suspension.unsuspend(command.userId, command.adminId);
      case 'delete': {
        const deleted = await this.deletion.deleteByAdmin(command.userId);
        this.logger.info(
          { userId: command.userId, adminId: command.adminId },
          deleted ? 'account deleted by an admin' : 'delete: no such account',
        );
        return deleted ? 'done' : 'unknown';
      }
    }
  }
}
