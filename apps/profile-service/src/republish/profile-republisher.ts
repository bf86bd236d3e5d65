import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OutboxService } from '@mate/server-kit';
import { toPreferencesUpdatedPayload } from '../preferences/preferences.service';
import { PreferencesRepository } from '../preferences/preferences.repository';
import { ProfilesRepository } from '../profiles/profiles.repository';
import { ProfilesService } from '../profiles/profiles.service';

/** Members per transaction: short enough for the row locks, long enough to amortise the commits. */
export const REPUBLISH_BATCH_SIZE = 100;

export interface RepublishResult {
  profiles: number;
  preferences: number;
}

/**
 * `node main.js republish`: publishes every member's current state again, `profile.updated` for
 * each profile and `preferences.updated` for each stored preferences row (a member who never saved
 * preferences never published any through the API either). Each event is read under its row's
 * lock and written through the outbox, which gives it the aggregate's next version, so consumers
 * apply it over anything older and end where the API would have left them. Fills consumers that
 * started late, and the demo population the seeder wrote straight into the tables.
 */
@Injectable()
export class ProfileRepublisher {
  constructor(
    private readonly dataSource: DataSource,
    private readonly profilesRepository: ProfilesRepository,
    private readonly profiles: ProfilesService,
    private readonly preferences: PreferencesRepository,
    private readonly outbox: OutboxService,
  ) {}

  async republishAll(batchSize = REPUBLISH_BATCH_SIZE): Promise<RepublishResult> {
    const result: RepublishResult = { profiles: 0, preferences: 0 };
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const batch = await this.profilesRepository.userIdsAfter(after, batchSize);
      if (batch.length === 0) return result;
      await this.dataSource.transaction(async (manager) => {
        for (const userId of batch) {
          const profile = await this.profilesRepository.lockByUserId(manager, userId);
          // Deleted since the batch was read.
          if (!profile) continue;
          await this.profiles.publishUpdated(manager, userId, profile);
          result.profiles += 1;
          const stored = await this.preferences.findForUpdate(manager, userId);
          if (!stored) continue;
          await this.outbox.publish(manager, 'preferences.updated', toPreferencesUpdatedPayload(stored));
          result.preferences += 1;
        }
      });
      after = batch[batch.length - 1];
    }
  }
}
