/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { switchDatabase, type MigrationClass } from './switch-database';

/** What one service's spec of its SuspensionsInKitProjection migration tells the shared scenario. */
export interface SuspensionsInKitSwitchSpec {
  /** The service's name, for the describe block: 'call-service'. */
  service: string;
  /** The test database's name. */
  database: string;
  /** The member table that held the `suspended` column: 'call_member'. */
  table: string;
  /** The migrations of a database set up before the switch (the kit's and the service's, less the switch's). */
  before: MigrationClass[];
  /** The migrations after it, the switch's with the kit's projection's. */
  after: MigrationClass[];
  /** The previous release's statement applying a suspension state (an upsert of `suspended`). */
  saveSuspension: (db: DataSource, userId: string, value: boolean) => Promise<unknown>;
  /** The previous release's statement saving a member's profile (its other insert). */
  saveProfile: (db: DataSource, userId: string, name: string) => Promise<unknown>;
  /** Any other write the previous release makes to the table that is no suspension state. */
  otherWrites?: (db: DataSource) => Promise<unknown>;
}

/**
 * ADR 0030: on a database holding suspensions in `<table>.suspended`, the switch copies them into
 * the kit's `kit_member_suspension`, and what a replica of the previous release still writes to the
 * column during the roll (a suspension, an unsuspension, an erasure) reaches the kit's table; its
 * other writes (a profile, and whatever `otherWrites` makes) change nothing there. The scenario is
 * the same for every service; each spec gives its table and its previous release's statements.
 */
export function describeSuspensionsInKitSwitch(spec: SuspensionsInKitSwitchSpec): void {
  describe(`${spec.service} migration: SuspensionsInKitProjection, on a database set up before it`, () => {
    const database = switchDatabase(spec.database);

    it("copies every suspended member into the kit table, and carries the previous release's writes there", async () => {
      const before = await database.migratedBefore(spec.before);
      const [ann, ben, cleo, dan, eve] = [
        randomUUID(),
        randomUUID(),
        randomUUID(),
        randomUUID(),
        randomUUID(),
      ];
      await before.query(
        `INSERT INTO ${spec.table} (user_id, name, suspended, updated_at) VALUES
         ($1, 'Ann', true, '2026-11-01T10:00:00Z'), ($2, 'Ben', false, '2026-11-02T10:00:00Z'), ($3, NULL, true, '2026-11-03T10:00:00Z')`,
        [ann, ben, cleo],
      );
      await before.destroy();

      const after = await database.opened(spec.after);
      try {
        expect((await after.runMigrations({ transaction: 'each' })).map((m) => m.name)).toEqual([
          'MemberSuspensionProjection1796401000000',
          'SuspensionsInKitProjection1796410000000',
        ]);
        const suspended = async () =>
          ((await after.query('SELECT user_id FROM kit_member_suspension')) as { user_id: string }[])
            .map((r) => r.user_id)
            .sort();
        expect(
          await after.query('SELECT user_id, suspended_at FROM kit_member_suspension ORDER BY suspended_at'),
        ).toEqual([
          { user_id: ann, suspended_at: new Date('2026-11-01T10:00:00Z') },
          { user_id: cleo, suspended_at: new Date('2026-11-03T10:00:00Z') },
        ]);

        await spec.saveSuspension(after, ben, true);
        await spec.saveSuspension(after, dan, true);
        await spec.saveSuspension(after, ann, false);
        expect(await suspended()).toEqual([ben, cleo, dan].sort());

        // A suspension the new release applied (the kit's table only), lifted by the previous release.
        await after.query(`INSERT INTO kit_member_suspension (user_id, suspended_at) VALUES ($1, now())`, [
          eve,
        ]);
        await spec.saveProfile(after, eve, 'Eve');
        await spec.saveProfile(after, ben, 'Ben');
        await spec.otherWrites?.(after);
        expect(await suspended()).toEqual([ben, cleo, dan, eve].sort());
        await spec.saveSuspension(after, eve, false);
        await after.query(`DELETE FROM ${spec.table} WHERE user_id = $1::uuid`, [cleo]);
        expect(await suspended()).toEqual([ben, dan].sort());
        expect(await after.runMigrations({ transaction: 'each' })).toEqual([]);
      } finally {
        await after.destroy();
      }
    });
  });
}
