import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '@mate/server-kit';
import { AdminEnv } from '../admin.env';
import { AuditRepository } from './audit.repository';
import { People } from './people';

/**
 * Fills in the author of audit entries written without one: those from before the columns
 * existed (migration AuditAuthorSnapshot) and any written while auth and profile did not answer.
 * Only while the account still exists (a deleted admin's name is known nowhere); the table's
 * trigger lets an unknown author be filled once and nothing else change. Runs once when a worker
 * replica starts, in the background (an owner that is away must not hold the service back).
 */
@Injectable()
export class AuditAuthorBackfill implements OnApplicationBootstrap {
  constructor(
    private readonly audit: AuditRepository,
    private readonly people: People,
    @Inject(AdminEnv) private readonly env: AdminEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.env.WORKERS !== 'on') return; // one-off commands (migrate among them) and API-only replicas
    this.run().then(
      (filled) => filled > 0 && this.logger.info({ filled }, 'audit entries given their author'),
      (e: unknown) => this.logger.warn({ err: e instanceof Error ? e.message : String(e) }, 'audit author backfill failed; it runs again at the next start'),
    );
  }

  /** The number of entries filled in. */
  async run(): Promise<number> {
    const admins = await this.audit.adminsWithoutAuthor();
    if (admins.length === 0) return 0;
    const person = await this.people.lookUp(admins);
    let filled = 0;
    for (const adminId of admins) {
      const { name, email } = person(adminId);
      if (name === null && email === null) continue;
      filled += await this.audit.fillAuthor(adminId, name, email);
    }
    return filled;
  }
}
