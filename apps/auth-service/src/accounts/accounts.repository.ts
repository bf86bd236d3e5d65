import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AdminAccountStatsPart, Role } from '@mate/contracts';
import { User } from './user.entity';

/** An account as the admin area reads it. */
export interface AdminAccountRow {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  created_at: Date;
  email_verified_at: Date | null;
  suspended_at: Date | null;
  suspension_reason: string | null;
  last_active_at: Date | null;
}

const ADMIN_ACCOUNT_COLUMNS =
  'id, email, name, role, created_at, email_verified_at, suspended_at, suspension_reason, last_active_at';

const ADMIN_ACCOUNT = `SELECT ${ADMIN_ACCOUNT_COLUMNS} FROM users WHERE id = $1`;

const ADMIN_ACCOUNTS = `SELECT ${ADMIN_ACCOUNT_COLUMNS} FROM users WHERE id = ANY($1::uuid[])`;

/** $1 a LIKE pattern (`%`, `_` and `\` escaped), $2 the text searched for, $3 the limit. */
const SEARCH_ACCOUNTS = `SELECT ${ADMIN_ACCOUNT_COLUMNS} FROM users
        WHERE email ILIKE $1 ESCAPE '\\' OR name ILIKE $1 ESCAPE '\\'
        ORDER BY (lower(email) = lower($2)) DESC, created_at DESC, id
        LIMIT $3`;

const ACCOUNT_STATS = `SELECT count(*)::int AS total,
              (count(*) FILTER (WHERE last_active_at >= $1))::int AS active,
              (count(*) FILTER (WHERE suspended_at IS NOT NULL))::int AS suspended
         FROM users`;

const LIVE_SESSION_IDS = 'SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL';

/** Every address the member's events in the outbox name (registered, email changes). */
const ADDRESSES_IN_EVENTS = `SELECT ARRAY[body->'payload'->>'email', body->'payload'->>'oldEmail', body->'payload'->>'newEmail'] AS addresses
         FROM outbox WHERE kind = 'event' AND body->'payload'->>'userId' = $1`;

/** Email jobs still queued to one of the addresses ($1, lower case): exact addresses, never a substring. */
const DELETE_EMAILS_TO = `DELETE FROM outbox WHERE kind = 'job' AND name = $2
           AND (lower(body->'data'->>'to') = ANY ($1::text[]) OR lower(body->'data'->'vars'->>'newEmail') = ANY ($1::text[]))`;

/** An address as the accounts table is searched by it: any case. */
const EMAIL_IS = 'lower(u.email) = :email';

/**
 * The statements of accounts (`users`, `sessions`) that the entity API does not say well: the
 * look-ups by address, the admin area's reads, the republish batches, and what the account's
 * erasure finds and removes in the outbox.
 */
@Injectable()
export class AccountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The account with this address (lower case), whatever case it was registered in. */
  findByEmail(manager: EntityManager, email: string): Promise<User | null> {
    return manager.createQueryBuilder(User, 'u').where(EMAIL_IS, { email }).getOne();
  }

  /** Whether an account has this address (lower case), in any case. */
  emailTaken(manager: EntityManager, email: string): Promise<boolean> {
    return manager.createQueryBuilder(User, 'u').where(EMAIL_IS, { email }).getExists();
  }

  /** The next `limit` accounts by id after `after`, locked until the transaction ends. */
  lockBatchAfter(manager: EntityManager, after: string, limit: number): Promise<User[]> {
    return manager
      .getRepository(User)
      .createQueryBuilder('u')
      .setLock('pessimistic_write')
      .where('u.id > :after', { after })
      .orderBy('u.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  async findForAdmin(userId: string): Promise<AdminAccountRow | null> {
    const [row] = await this.dataSource.query<AdminAccountRow[]>(ADMIN_ACCOUNT, [userId]);
    return row ?? null;
  }

  /** The accounts of these ids that exist, in no particular order. */
  findManyForAdmin(ids: string[]): Promise<AdminAccountRow[]> {
    return this.dataSource.query<AdminAccountRow[]>(ADMIN_ACCOUNTS, [ids]);
  }

  /**
   * Accounts whose name or email matches `pattern` (case-insensitive), the one whose email is
   * exactly `email` first, then newest first. A sequential scan of users: admin searches are rare.
   */
  searchForAdmin(pattern: string, email: string, limit: number): Promise<AdminAccountRow[]> {
    return this.dataSource.query<AdminAccountRow[]>(SEARCH_ACCOUNTS, [pattern, email, limit]);
  }

  /** Every account, those active since `since`, and the suspended ones. */
  async stats(since: Date): Promise<AdminAccountStatsPart> {
    const [row] = await this.dataSource.query<AdminAccountStatsPart[]>(ACCOUNT_STATS, [since]);
    return row;
  }

  async liveSessionIds(userId: string): Promise<string[]> {
    const rows = await this.dataSource.query<{ id: string }[]>(LIVE_SESSION_IDS, [userId]);
    return rows.map((s) => s.id);
  }

  /** The addresses (any case, some null) the member's events in the outbox name. */
  async addressesInEvents(manager: EntityManager, userId: string): Promise<(string | null)[]> {
    const rows: { addresses: (string | null)[] }[] = await manager.query(ADDRESSES_IN_EVENTS, [userId]);
    return rows.flatMap((r) => r.addresses);
  }

  /** Deletes the jobs of `queue` (the email queue) still waiting to write to one of the addresses (lower case). */
  async deleteEmailsTo(manager: EntityManager, addresses: string[], queue: string): Promise<void> {
    await manager.query(DELETE_EMAILS_TO, [addresses, queue]);
  }
}
