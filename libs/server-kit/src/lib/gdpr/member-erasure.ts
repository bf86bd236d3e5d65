import { createHash } from 'node:crypto';
import type { MigrationInterface, QueryRunner, EntityManager } from 'typeorm';

/*
 * Erasing a member (issue 12, docs/adr/0016-member-data.md). Every service erases what it holds of
 * a member in its `user.deleted` handler, in one transaction, and calls eraseMemberTraces there:
 *
 * - the kit's own tables lose every trace of the id: outbox rows whose event or job mentions it
 *   (a registration's email, a pair event), and the producer and consumer version rows of
 *   aggregates named after it (a profile, a pair);
 * - the service records that the member is erased in `erased_member`, by a hash of the id (the id
 *   itself is kept nowhere), so an event about the member that arrives later (a profile change
 *   relayed late, a pair event from a slow producer) is dropped by the kit's consumer instead of
 *   bringing the member back;
 * - an advisory lock per member orders the two: an event about the member takes it shared for its
 *   transaction, the erasure exclusive, so an event either commits before the erasure (which then
 *   erases what it wrote) or sees the member erased.
 */

/** The kit's table of erased members (hashes only). Included in KIT_MIGRATIONS. */
export class MemberErasure1796000000000 implements MigrationInterface {
  name = 'MemberErasure1796000000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE IF NOT EXISTS erased_member (
      id_hash bytea PRIMARY KEY,
      erased_at timestamptz NOT NULL DEFAULT now()
    )`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS erased_member');
  }
}

/** What the helpers run SQL on: a transaction's EntityManager (or a DataSource for a read). */
type Queryable = Pick<EntityManager, 'query'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The one spelling of a member id the erasure compares: lower case. */
function normalised(id: string): string {
  return id.toLowerCase();
}

/** What `erased_member` keeps instead of the id: a SHA-256 under the table's own label. */
export function erasedMemberHash(userId: string): Buffer {
  return createHash('sha256').update(`mate:erased-member:${normalised(userId)}`).digest();
}

/** The advisory lock of a member's erasure (a 64-bit key derived from the id in SQL). */
const LOCK_KEY_SQL = `hashtextextended('mate:member:' || m, 0)`;

/**
 * The member ids an event or job payload names: every UUID among its top-level string values,
 * string arrays and pair ids (`a:b`). Other UUIDs (a photo's, a message's) are harmless: no member
 * has them as an id.
 */
export function memberIdsOf(payload: unknown): string[] {
  const ids = new Set<string>();
  const take = (value: unknown) => {
    if (typeof value !== 'string') return;
    for (const part of value.split(':')) if (UUID.test(part)) ids.add(normalised(part));
  };
  if (payload && typeof payload === 'object') {
    for (const value of Object.values(payload as Record<string, unknown>)) {
      if (Array.isArray(value)) value.forEach(take);
      else take(value);
    }
  }
  return [...ids].sort();
}

/**
 * Takes the members' erasure locks shared for the rest of the transaction and says whether any of
 * them is erased. A write about other members that must not outlive their erasure (an event's
 * handler, a member acting on another) calls it first and does nothing when it answers true.
 */
export async function lockMembersAgainstErasure(manager: Queryable, userIds: readonly string[]): Promise<boolean> {
  const ids = [...new Set(userIds.map(normalised))].sort();
  if (ids.length === 0) return false;
  await manager.query(
    `SELECT count(pg_advisory_xact_lock_shared(${LOCK_KEY_SQL}))::int AS n FROM (SELECT m FROM unnest($1::text[]) m ORDER BY m) s`,
    [ids],
  );
  const rows: unknown[] = await manager.query('SELECT 1 FROM erased_member WHERE id_hash = ANY($1::bytea[]) LIMIT 1', [
    ids.map(erasedMemberHash),
  ]);
  return rows.length > 0;
}

/**
 * A scalar subquery that takes the erasure locks of the members in the `text[]` parameter `param`
 * (ids as `memberIdsOf` gives them) shared, in id order: `lockMembersAgainstErasure`'s first
 * statement, for a statement of the kit's consumer that records its event in the same round trip.
 * Check `erased_member` in a later statement, whose snapshot is taken after the locks were granted.
 */
export function shareErasureLocksSql(param: string): string {
  if (!/^\$\d+$/.test(param)) throw new Error('shareErasureLocksSql takes a parameter ($n)');
  return `(SELECT count(pg_advisory_xact_lock_shared(${LOCK_KEY_SQL}))::int FROM (SELECT m FROM unnest(${param}::text[]) m ORDER BY m) s)`;
}

/** Whether the member was erased here (no lock taken: for reads). */
export async function isMemberErased(manager: Queryable, userId: string): Promise<boolean> {
  const rows: unknown[] = await manager.query('SELECT 1 FROM erased_member WHERE id_hash = $1', [erasedMemberHash(userId)]);
  return rows.length > 0;
}

/** Takes a member's erasure lock exclusively for the rest of the transaction. */
export async function lockMemberForErasure(manager: Queryable, userId: string): Promise<void> {
  await manager.query(`SELECT pg_advisory_xact_lock(${LOCK_KEY_SQL}) FROM (SELECT $1::text AS m) s`, [normalised(userId)]);
}

export interface ErasedTraces {
  outbox: number;
  versions: number;
}

/**
 * Erases the kit's traces of a member and records the erasure, inside the caller's transaction
 * (the one that erases the service's own rows). Idempotent. Call it BEFORE publishing anything in
 * that transaction: it deletes every outbox row that mentions the member, whoever's event it is.
 */
export async function eraseMemberTraces(manager: EntityManager, userId: string): Promise<ErasedTraces> {
  if (!UUID.test(userId)) throw new Error('eraseMemberTraces needs a member id (UUID)');
  const id = normalised(userId);
  await lockMemberForErasure(manager, id);
  const pattern = `%${id}%`;
  const [outbox] = await countOf(manager, `WITH gone AS (DELETE FROM outbox WHERE lower(body::text) LIKE $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`, [pattern]);
  const [produced] = await countOf(manager, `WITH gone AS (DELETE FROM aggregate_version WHERE lower(aggregate_id) LIKE $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`, [pattern]);
  const [applied] = await countOf(manager, `WITH gone AS (DELETE FROM applied_version WHERE lower(aggregate_id) LIKE $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`, [pattern]);
  await manager.query('INSERT INTO erased_member (id_hash) VALUES ($1) ON CONFLICT (id_hash) DO NOTHING', [erasedMemberHash(id)]);
  return { outbox: outbox.n, versions: produced.n + applied.n };
}

async function countOf(manager: EntityManager, sql: string, params: unknown[]): Promise<{ n: number }[]> {
  return manager.query(sql, params);
}
