import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Preferences, type PreferenceValues } from './preferences.entity';

/** Stored columns in the order of the upsert below. */
const COLUMNS: [keyof PreferenceValues, string][] = [
  ['minAge', 'min_age'],
  ['maxAge', 'max_age'],
  ['maxDistance', 'max_distance'],
  ['genderPreference', 'gender_preference'],
  ['interests', 'interests'],
  ['dealbreakers', 'dealbreakers'],
  ['minHeight', 'min_height'],
  ['maxHeight', 'max_height'],
  ['educationPreference', 'education_preference'],
  ['relationshipGoalPreference', 'relationship_goal_preference'],
  ['smokingPreference', 'smoking_preference'],
  ['drinkingPreference', 'drinking_preference'],
  ['exercisePreference', 'exercise_preference'],
  ['petsPreference', 'pets_preference'],
  ['requiredInterests', 'required_interests'],
];

/** The SQL of the preferences row. */
const ERASE_PREFERENCES = 'DELETE FROM preferences WHERE user_id = $1';

@Injectable()
export class PreferencesRepository {
  constructor(private readonly dataSource: DataSource) {}

  find(userId: string, manager: EntityManager = this.dataSource.manager): Promise<Preferences | null> {
    return manager.getRepository(Preferences).findOne({ where: { userId } });
  }

  /** The row, locked until the transaction ends (so two saves cannot interleave read and write). */
  findForUpdate(manager: EntityManager, userId: string): Promise<Preferences | null> {
    return manager
      .getRepository(Preferences)
      .createQueryBuilder('pr')
      .setLock('pessimistic_write')
      .where('pr.user_id = :userId', { userId })
      .getOne();
  }

  /** Creates or replaces the member's row; answers it as stored. */
  async save(manager: EntityManager, userId: string, values: PreferenceValues): Promise<Preferences> {
    const columns = COLUMNS.map(([, column]) => column);
    await manager.query(
      `INSERT INTO preferences (user_id, ${columns.join(', ')})
       VALUES ($1, ${columns.map((_, i) => `$${i + 2}`).join(', ')})
       ON CONFLICT (user_id) DO UPDATE
         SET ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()`,
      [userId, ...COLUMNS.map(([property]) => values[property])],
    );
    const stored = await this.find(userId, manager);
    if (!stored) throw new Error('preferences row missing right after its upsert');
    return stored;
  }

  /** Deletes the member's preferences (their erasure). */
  async eraseMember(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(ERASE_PREFERENCES, [userId]);
  }
}
