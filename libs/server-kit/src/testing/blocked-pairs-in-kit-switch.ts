/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import { orderedPairOf } from '@mate/contracts';
import { switchDatabase, type MigrationClass } from './switch-database';

/** What one service's spec of its BlocksInKitProjection migration (blockedPairTableIntoKit) tells the shared scenario. */
export interface BlockedPairsInKitSwitchSpec {
  /** The service's name, for the describe block: 'profile-service'. */
  service: string;
  /** The test database's name. */
  database: string;
  /** The migrations of a database set up before the switch, with `blocked_pair` a table. */
  before: MigrationClass[];
  /** The migrations after it, the switch's with the kit's pair projection's. */
  after: MigrationClass[];
  /** The names of the migrations the switch's run applies, in order. */
  applied: string[];
}

/**
 * ADR 0030: on a database holding blocks in `blocked_pair`, the switch copies them into the kit's
 * `kit_pair`, and the old name stays a view of it through which a replica of the previous release
 * reads and writes the kit's table (its statements: save the blockers, forget a block, erase a
 * member) until a later deploy drops it.
 */
export function describeBlockedPairsInKitSwitch(spec: BlockedPairsInKitSwitchSpec): void {
  describe(`${spec.service} migration: BlocksInKitProjection, on a database set up before it`, () => {
    const database = switchDatabase(spec.database);

    it('copies every blocked pair into the kit table, and the old name reads and writes it', async () => {
      const before = await database.migratedBefore(spec.before);
      const [ann, ben, cleo, dan] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      const annBen = orderedPairOf(ann, ben);
      const benCleo = orderedPairOf(ben, cleo);
      await before.query(`INSERT INTO blocked_pair (user_a, user_b, blocked_by) VALUES ($1, $2, $3::uuid[]), ($4, $5, $6::uuid[])`, [
        ...annBen,
        [ann],
        ...benCleo,
        [ben, cleo],
      ]);
      await before.destroy();

      const after = await database.opened(spec.after);
      try {
        expect((await after.runMigrations({ transaction: 'each' })).map((m) => m.name)).toEqual(spec.applied);
        const byFirst = (rows: Record<string, unknown>[]) =>
          rows.sort((x, y) => String(x['member_a']).localeCompare(String(y['member_a'])));
        const kitRows = async () => byFirst(await after.query('SELECT member_a, member_b, blocked_by, version FROM kit_pair'));
        expect(await kitRows()).toEqual(
          byFirst([
            { member_a: annBen[0], member_b: annBen[1], blocked_by: [ann], version: null },
            { member_a: benCleo[0], member_b: benCleo[1], blocked_by: [ben, cleo], version: null },
          ]),
        );

        // The previous release's statements (save the blockers, forget a block, the erasure), through the view.
        const annDan = orderedPairOf(ann, dan);
        const saveBlockers = `INSERT INTO blocked_pair (user_a, user_b, blocked_by) VALUES ($1, $2, $3::uuid[])
           ON CONFLICT (user_a, user_b) DO UPDATE SET blocked_by = EXCLUDED.blocked_by, updated_at = now()`;
        await after.query(saveBlockers, [...annDan, [dan]]);
        await after.query(saveBlockers, [...benCleo, [cleo]]);
        await after.query('DELETE FROM blocked_pair WHERE user_a = $1 AND user_b = $2', annBen);
        expect(
          await after.query(
            'SELECT 1 FROM blocked_pair WHERE user_a = least($1::uuid, $2::uuid) AND user_b = greatest($1::uuid, $2::uuid)',
            [dan, ann],
          ),
        ).toHaveLength(1);
        expect(await kitRows()).toEqual(
          byFirst([
            { member_a: annDan[0], member_b: annDan[1], blocked_by: [dan], version: null },
            { member_a: benCleo[0], member_b: benCleo[1], blocked_by: [cleo], version: null },
          ]),
        );
        await after.query('DELETE FROM blocked_pair WHERE $1::uuid IN (user_a, user_b) OR $1::uuid = ANY (blocked_by)', [dan]);
        expect(await after.query('SELECT 1 FROM kit_pair WHERE $1 IN (member_a, member_b)', [dan])).toEqual([]);
        expect(await after.runMigrations({ transaction: 'each' })).toEqual([]);

        // The way back: the table again, with the blocked pairs only.
        await after.undoLastMigration({ transaction: 'each' });
        expect(await after.query('SELECT user_a, user_b, blocked_by FROM blocked_pair')).toEqual([
          { user_a: benCleo[0], user_b: benCleo[1], blocked_by: [cleo] },
        ]);
      } finally {
        await after.destroy();
      }
    });
  });
}
