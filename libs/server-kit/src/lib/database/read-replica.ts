import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { Pool, type PoolClient, type QueryConfig, type QueryResultRow } from 'pg';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { ServiceName } from '@mate/contracts';
import { DatabaseEnv, SERVICE_ENV } from '../config/config';
import { LOGGER, serializeError } from '../logging/logger';
import { REDIS } from '../redis/redis';
import { SERVICE_NAME } from '../core.module';
import { driverPool, isTransactionPooled } from './named-query';

/**
 * How long a member's last write is remembered for read-your-writes. A replica further behind than
 * this is one to take out of service, not one to read from: past it, the member's own write could
 * be missing from the replica (docs/adr/0033).
 */
export const OWN_WRITE_MEMORY_MS = 10 * 60_000;
/**
 * After a replica failed to answer, reads go to the primary and a probe asks the replica this often;
 * reads go back to it once a probe is answered.
 */
export const REPLICA_RETRY_AFTER_MS = 2_000;
/** How long to wait for a connection to the replica (or its PgBouncer) before reading the primary. */
const REPLICA_CONNECT_TIMEOUT_MS = 1_000;
/**
 * How long a read on the replica may take before it is abandoned and run on the primary. A replica
 * behind its own PgBouncer that cannot reach it does not refuse: PgBouncer holds the query (up to
 * its query_wait_timeout, 120 s), so without this a down replica would hang every read.
 */
export const REPLICA_READ_TIMEOUT_MS = 5_000;
/** How long the replica's replay position (or a probe) may take. */
const REPLICA_POSITION_TIMEOUT_MS = 1_000;

/** A read statement: its name as a prepared statement (see namedQuery; none: unnamed), its text, its values. */
export interface ReadStatement {
  name?: string;
  text: string;
  values: unknown[];
}

/** A statement inside `inReadOnlyTransaction`: its rows. */
export type ReadQuery = <T = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<T[]>;

/** Where a read ran (for tests and logs). */
export type ReadServer = 'replica' | 'primary';

/**
 * Keeps the larger of the stored and the given WAL position (bytes since 0/0, as a decimal number):
 * two writes of one member finishing in either order leave the later position.
 */
const KEEP_LATER_POSITION = `
local stored = redis.call('GET', KEYS[1])
if stored and tonumber(stored) >= tonumber(ARGV[1]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

/** The replay position of a server that is not a standby: it has everything. */
const EVERYTHING = 2n ** 64n;

const PRIMARY_POSITION_SQL = "SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::text AS position";
const REPLAY_POSITION_SQL = "SELECT (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::text AS position";

/**
 * The service's heaviest reads on a streaming replica (DATABASE_READ_URL), with read-your-writes
 * for the member: after a write of a member's, `wrote(member)` remembers the primary's WAL position
 * for them (Redis, OWN_WRITE_MEMORY_MS); a read for that member runs on the replica only once the
 * replica has replayed past it (`pg_last_wal_replay_lsn()`, remembered as a lower bound and asked
 * again only when it is not far enough), else on the primary. A read for nobody in particular
 * (analytics) runs on the replica as it is. A replica that fails or does not answer within
 * REPLICA_READ_TIMEOUT_MS is left (one log line; the read runs on the primary, never an error of
 * its own) until a probe every REPLICA_RETRY_AFTER_MS is answered (one log line).
 * Without DATABASE_READ_URL every read runs on the primary, exactly as `namedQuery` would.
 */
@Injectable()
export class ReadReplica implements OnApplicationShutdown {
  private readonly replica: Pool | null;
  private readonly prefix: string;
  /** The replica's replay position last seen (a lower bound: replay only moves forward). */
  private replayed = -1n;
  private asking: Promise<bigint> | null = null;
  /** The replica failed: reads go to the primary while a probe asks it again. */
  private down = false;
  private probe: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(SERVICE_ENV) env: DatabaseEnv,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SERVICE_NAME) private readonly service: ServiceName,
  ) {
    this.prefix = env.KEY_PREFIX;
    this.replica = env.DATABASE_READ_URL
      ? new Pool({
          connectionString: env.DATABASE_READ_URL,
          max: 10,
          connectionTimeoutMillis: REPLICA_CONNECT_TIMEOUT_MS,
          // Client-side: a timed-out query's connection is dropped, not given back.
          query_timeout: REPLICA_READ_TIMEOUT_MS,
        })
      : null;
    // A replica's connection that breaks while idle must not crash the process; the next read notices.
    this.replica?.on('error', () => undefined);
  }

  get configured(): boolean {
    return this.replica !== null;
  }

  private key(memberId: string): string {
    return `${this.prefix}:own-write:${this.service}:${memberId}`;
  }

  /**
   * After a committed write of these members' (their swipe, their message, their call): their next
   * reads through `read` see it. Nothing without a replica; a failure is logged and not thrown
   * (the write has happened; the member may then read the replica's older state for a moment).
   */
  async wrote(...memberIds: string[]): Promise<void> {
    if (!this.replica || memberIds.length === 0) return;
    try {
      const [{ position }] = await this.dataSource.query<{ position: string }[]>(PRIMARY_POSITION_SQL);
      await Promise.all(
        memberIds.map((id) => this.redis.eval(KEEP_LATER_POSITION, 1, this.key(id), position, OWN_WRITE_MEMORY_MS)),
      );
    } catch (err) {
      this.logger.warn({ err: serializeError(err), members: memberIds.length }, 'read replica: a member write was not remembered');
    }
  }

  /** user.deleted: what was remembered of the member's writes goes with them (the kit's erasure chain). */
  async forget(memberId: string): Promise<void> {
    await this.redis.del(this.key(memberId));
  }

  /**
   * Runs a read statement for `memberId` (whose own writes it must see), or for nobody in
   * particular (`null`): on the replica when it has everything the member wrote, else on the primary.
   */
  async read<T extends QueryResultRow>(memberId: string | null, statement: ReadStatement): Promise<T[]> {
    return (await this.readFrom<T>(memberId, statement)).rows;
  }

  /** `read`, saying where it ran. */
  async readFrom<T extends QueryResultRow>(
    memberId: string | null,
    statement: ReadStatement,
  ): Promise<{ rows: T[]; server: ReadServer }> {
    if (this.replica && !this.down && (await this.replicaHas(memberId))) {
      try {
        return { rows: (await this.replica.query<T>(this.config(statement))).rows, server: 'replica' };
      } catch (err) {
        this.replicaFailed(err);
      }
    }
    return { rows: (await driverPool(this.dataSource).query<T>(this.config(statement))).rows, server: 'primary' };
  }

  /**
   * Runs `work` in a read-only transaction (READ COMMITTED) on the replica when it has everything
   * the member wrote (`null`: nobody's own writes), else on the primary as a TypeORM transaction.
   * `work` only reads: when the replica fails under it, it runs again on the primary.
   */
  async inReadOnlyTransaction<T>(memberId: string | null, work: (query: ReadQuery) => Promise<T>): Promise<T> {
    if (this.replica && !this.down && (await this.replicaHas(memberId))) {
      let client: PoolClient | undefined;
      try {
        client = await this.replica.connect();
        await client.query('BEGIN READ ONLY');
        const connection = client;
        const value = await work(async (text, values = []) => (await connection.query(text, values)).rows);
        await client.query('COMMIT');
        client.release();
        return value;
      } catch (err) {
        // Not given back for another read: a connection in an unknown state is dropped.
        client?.release(true);
        this.replicaFailed(err);
      }
    }
    return this.dataSource.transaction('READ COMMITTED', async (manager) => {
      await manager.query('SET TRANSACTION READ ONLY');
      return work((text, values = []) => manager.query(text, values));
    });
  }

  /** Named (when it has a name) on a direct connection, unnamed through a transaction pooler (as preparedStatement). */
  private config({ name, text, values }: ReadStatement) {
    return name === undefined || isTransactionPooled(this.dataSource) ? { text, values } : { name, text, values };
  }

  /** Whether the replica has replayed the member's last remembered write (always, for nobody's). */
  private async replicaHas(memberId: string | null): Promise<boolean> {
    if (memberId === null) return true;
    let wrote: string | null;
    try {
      wrote = await this.redis.get(this.key(memberId));
    } catch (err) {
      // Without the member's position the replica might miss their write: the primary answers.
      this.logger.warn({ err: serializeError(err) }, 'read replica: a member write position could not be read; reading the primary');
      return false;
    }
    if (wrote === null) return true;
    const needed = BigInt(wrote);
    if (this.replayed >= needed) return true;
    try {
      return (await this.replayPosition()) >= needed;
    } catch (err) {
      this.replicaFailed(err);
      return false;
    }
  }

  /** The replica's replay position now: one question at a time, shared by the reads that wait for it. */
  private replayPosition(): Promise<bigint> {
    this.asking ??= (async () => {
      try {
        const { rows } = await (this.replica as Pool).query<{ position: string | null }>({
          text: REPLAY_POSITION_SQL,
          query_timeout: REPLICA_POSITION_TIMEOUT_MS,
        } as QueryConfig);
        // null: not a standby (a primary behind DATABASE_READ_URL has everything it wrote itself).
        const position = rows[0]?.position == null ? EVERYTHING : BigInt(rows[0].position.split('.')[0]);
        if (position > this.replayed) this.replayed = position;
        return position;
      } finally {
        this.asking = null;
      }
    })();
    return this.asking;
  }

  /**
   * A read the replica failed: it reruns on the primary. The replica is left (to the probe) unless
   * PostgreSQL answered with an error of the statement itself (a conflict with recovery, 40001,
   * cancels a long read on a standby; the replica is up).
   */
  private replicaFailed(err: unknown) {
    // A SQLSTATE is five digits or capitals; Node's socket errors (ECONNREFUSED) and pg's timeouts are not.
    const code = (err as { code?: unknown } | null)?.code;
    const sqlState = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
    const unavailable = sqlState === null || sqlState.startsWith('08') || ['57P01', '57P02', '57P03'].includes(sqlState);
    if (!unavailable) return;
    // Another server may answer at the same address next time (a replaced replica may be further behind).
    this.replayed = -1n;
    if (this.down) return;
    this.down = true;
    this.logger.warn(
      { err: serializeError(err), probeEveryMs: REPLICA_RETRY_AFTER_MS },
      'read replica did not answer; reading the primary',
    );
    const probe = () => {
      if (this.closed) return;
      this.probe = setTimeout(() => {
        this.replayPosition().then(
          () => {
            this.probe = null;
            this.down = false;
            this.logger.info('read replica answers again; reading it');
          },
          probe,
        );
      }, REPLICA_RETRY_AFTER_MS);
      this.probe.unref();
    };
    probe();
  }

  async onApplicationShutdown() {
    this.closed = true;
    if (this.probe) clearTimeout(this.probe);
    this.probe = null;
    await this.replica?.end();
  }
}
