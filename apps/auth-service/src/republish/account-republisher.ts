import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OutboxService } from '@mate/server-kit';
import { AccountsRepository } from '../accounts/accounts.repository';

/** Accounts per transaction: short enough for the row locks, long enough to amortise the commits. */
export const REPUBLISH_BATCH_SIZE = 100;

export interface RepublishResult {
  registered: number;
  verified: number;
}

/**
 * `node main.js republish`: publishes every account again as registration published it,
 * `user.registered` (and `user.verified` for a verified one), with the payloads registration and
 * verification write. Each account is read under its row's lock and written through the outbox,
 * which gives the events the aggregate's next versions, so consumers apply them over anything
 * older. Fills consumers that started late, and the accounts the seeder wrote straight into the
 * table (profile-service then holds each seeded member as if they had signed up through the API).
 */
@Injectable()
export class AccountRepublisher {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: AccountsRepository,
    private readonly outbox: OutboxService,
  ) {}

  async republishAll(batchSize = REPUBLISH_BATCH_SIZE): Promise<RepublishResult> {
    const result: RepublishResult = { registered: 0, verified: 0 };
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const done = await this.dataSource.transaction(async (manager) => {
        const users = await this.accounts.lockBatchAfter(manager, after, batchSize);
        for (const user of users) {
          await this.outbox.publish(manager, 'user.registered', {
            userId: user.id,
            email: user.email,
            name: user.name,
            age: user.age,
            registeredAt: user.createdAt.toISOString(),
          });
          result.registered += 1;
          if (!user.emailVerifiedAt) continue;
          await this.outbox.publish(manager, 'user.verified', {
            userId: user.id,
            verifiedAt: user.emailVerifiedAt.toISOString(),
            name: user.name,
            age: user.age,
          });
          result.verified += 1;
        }
        if (users.length > 0) after = users[users.length - 1].id;
        return users.length < batchSize;
      });
      if (done) return result;
    }
  }
}
