import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { SERVICE_REGISTRY } from '@mate/contracts';
import { runCommand } from '@mate/server-kit/testing';
import { startOwnPostgresServer, type OwnPostgresServer } from './own-postgres';

const ROOT = path.resolve(__dirname, '../../..');
const BACKUP = path.join(ROOT, 'tools/scripts/backup.mjs');
const RESTORE = path.join(ROOT, 'tools/scripts/restore.mjs');
const SOURCE_SERVER =
  process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Migrations run from source through SWC, two at a time (the machines have 2 cores). */
const MIGRATION_CONCURRENCY = 2;
/** Eight services' migrations from source take ~1 min on an idle 2-core machine, several on a busy one. */
const SETUP_TIMEOUT_MS = 600_000;

const exec = promisify(execFile);

interface Manifest {
  format: string;
  createdAt: string;
  pgDumpVersion: string;
  databases: { service: string; db: string; database: string; file: string; bytes: number; sha256: string }[];
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Rows per table of the public schema. */
async function rowCounts(url: string): Promise<Record<string, number>> {
  return withClient(url, async (client) => {
    const { rows: tables } = await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM public."${name}"`);
      counts[name] = rows[0].n;
    }
    return counts;
  });
}

async function databasesNamed(serverUrl: string, prefix: string): Promise<string[]> {
  return withClient(serverUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY 1`,
      [prefix],
    );
    return rows.map((r) => r.datname);
  });
}

/** Runs one of the scripts as `npm run` would, with no database variables of the test's environment. */
async function script(
  file: string,
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.endsWith('DATABASE_URL') && key !== 'PG_BIN'),
  );
  try {
    const { stdout, stderr } = await exec(process.execPath, [file, ...args], {
      cwd: ROOT,
      env: { ...env, ...extraEnv },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  }
}

async function inBatches<T>(
  items: readonly T[],
  size: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

/**
 * `npm run backup` and `npm run restore` (tools/scripts/backup.mjs, restore.mjs) for every service
 * database of the registry: the databases are made on the shared server by each service's real
 * migrations (names with a random prefix), hold a member, a profile and a message, are backed up,
 * and restored into a fresh PostgreSQL server of the test's own, where the data is found again.
 */
describe('backup and restore', () => {
  const services = SERVICE_REGISTRY.filter((s) => s.status === 'deployed' && s.database).map((s) => ({
    service: s.name,
    db: s.database as string,
  }));
  const prefix = `mate_test_backup_${randomBytes(4).toString('hex')}_`;
  const sourceUrl = (db: string) => withDatabase(SOURCE_SERVER, `${prefix}${db}`);
  const member = {
    id: randomUUID(),
    email: `restored-${randomBytes(3).toString('hex')}@example.com`,
    name: 'Restored Member',
  };
  const partner = randomUUID();
  const conversation = randomUUID();
  const message = { id: randomUUID(), content: 'This message came back from a backup' };

  let target: OwnPostgresServer | undefined;
  let starting: Promise<OwnPostgresServer> | undefined;
  let workDir: string;
  let outDir: string;
  let backupDir: string;
  let manifest: Manifest;
  const targetUrl = (database: string) => withDatabase((target as OwnPostgresServer).url, database);

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'mate-backup-test-'));
    outDir = path.join(workDir, 'backups');
    starting = startOwnPostgresServer().then((server) => (target = server));
    // Awaited below; marked handled so that a failing migration does not leave it unobserved.
    starting.catch(() => undefined);
    await withClient(SOURCE_SERVER, async (client) => {
      for (const { db } of services) await client.query(`CREATE DATABASE "${prefix}${db}"`);
    });
    await inBatches(services, MIGRATION_CONCURRENCY, async ({ service, db }) => {
      await runCommand(`apps/${service}/src/main.ts`, 'migrate', {
        DATABASE_URL: sourceUrl(db),
        LOG_LEVEL: 'warn',
      });
    });
    await withClient(sourceUrl('auth'), (c) =>
      c.query(
        `INSERT INTO users (id, email, password_hash, name, age, email_verified_at) VALUES ($1, $2, 'not-a-real-hash', $3, 31, now())`,
        [member.id, member.email, member.name],
      ),
    );
    await withClient(sourceUrl('profile'), (c) =>
      c.query(
        `INSERT INTO profiles (user_id, name, age, bio, interests) VALUES ($1, $2, 31, 'Kept by the nightly backup', '{hiking,jazz}')`,
        [member.id, member.name],
      ),
    );
    const [a, b] = [member.id, partner].sort();
    await withClient(sourceUrl('chat'), async (c) => {
      await c.query(
        `INSERT INTO conversation (id, member_a, member_b, match_id, matched_at, last_seq) VALUES ($1, $2, $3, $4, now(), 1)`,
        [conversation, a, b, randomUUID()],
      );
      await c.query(
        `INSERT INTO message (id, conversation_id, seq, sender_id, recipient_id, client_id, content) VALUES ($1, $2, 1, $3, $4, 'client-1', $5)`,
        [message.id, conversation, member.id, partner, message.content],
      );
    });
    await starting;
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await starting?.catch(() => undefined);
    await target?.stop();
    await withClient(SOURCE_SERVER, async (client) => {
      for (const name of await databasesNamed(SOURCE_SERVER, prefix))
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    });
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('backs up every service database of the registry into a timestamped folder with a manifest', async () => {
    const result = await script(BACKUP, [
      '--out',
      outDir,
      '--database-url',
      SOURCE_SERVER,
      '--name-prefix',
      prefix,
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });

    const folders = await readdir(outDir);
    expect(folders).toEqual([expect.stringMatching(/^\d{8}T\d{6}Z$/)]);
    backupDir = path.join(outDir, folders[0]);
    manifest = JSON.parse(await readFile(path.join(backupDir, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.format).toBe('mate-backup/1');
    expect(manifest.pgDumpVersion).toMatch(/^pg_dump \(PostgreSQL\) \d+/);
    expect(Date.now() - Date.parse(manifest.createdAt)).toBeLessThan(10 * 60_000);
    expect(manifest.databases.map((d) => d.service)).toEqual(services.map((s) => s.service));
    for (const d of manifest.databases) {
      expect(d.database).toBe(`${prefix}${d.db}`);
      const bytes = await readFile(path.join(backupDir, d.file));
      expect(bytes.length).toBe(d.bytes);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(d.sha256);
      // The table: service, database, size, seconds.
      expect(result.stdout).toMatch(
        new RegExp(`^${d.service}\\s+${d.database}\\s+[\\d.]+ [kMG]?B\\s+[\\d.]+$`, 'm'),
      );
    }
    expect(result.stdout).toContain(`Backup complete: ${services.length} databases`);
  });

  it('restores every database into a fresh server: the same rows, the member, the profile and the message', async () => {
    const server = (target as OwnPostgresServer).url;
    const result = await script(RESTORE, [backupDir, '--database-url', server]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    for (const d of manifest.databases)
      expect(result.stdout).toMatch(
        new RegExp(`^${d.service}\\s+${d.database}\\s+.+\\s+created\\s+[\\d.]+$`, 'm'),
      );

    for (const d of manifest.databases) {
      const restored = await rowCounts(targetUrl(d.database));
      expect(Object.keys(restored).length).toBeGreaterThan(1);
      expect(restored).toEqual(await rowCounts(sourceUrl(d.db)));
    }
    const users = await withClient(targetUrl(`${prefix}auth`), (c) =>
      c.query('SELECT email, name, age FROM users WHERE id = $1', [member.id]),
    );
    expect(users.rows).toEqual([{ email: member.email, name: member.name, age: 31 }]);
    const profiles = await withClient(targetUrl(`${prefix}profile`), (c) =>
      c.query('SELECT name, bio, interests FROM profiles WHERE user_id = $1', [member.id]),
    );
    expect(profiles.rows).toEqual([
      { name: member.name, bio: 'Kept by the nightly backup', interests: ['hiking', 'jazz'] },
    ]);
    const messages = await withClient(targetUrl(`${prefix}chat`), (c) =>
      c.query('SELECT content, seq, sender_id FROM message WHERE id = $1', [message.id]),
    );
    expect(messages.rows).toEqual([{ content: message.content, seq: 1, sender_id: member.id }]);
  });

  it('keeps sequences and constraints: inserts after the restore work, and break no rule', async () => {
    for (const d of manifest.databases) {
      // Every service database has TypeORM's migrations table, whose id comes from a sequence.
      await withClient(targetUrl(d.database), async (c) => {
        const { rows: before } = await c.query<{ max: number }>('SELECT max(id)::int AS max FROM migrations');
        const { rows } = await c.query<{ id: number }>(
          `INSERT INTO migrations ("timestamp", name) VALUES (1, 'AfterRestore1') RETURNING id`,
        );
        expect(rows[0].id).toBe(before[0].max + 1);
      });
    }
    await withClient(targetUrl(`${prefix}auth`), async (c) => {
      const added = await c.query(
        `INSERT INTO users (email, password_hash) VALUES ('after-restore@example.com', 'x') RETURNING id`,
      );
      expect(added.rows[0].id).toMatch(/^[0-9a-f-]{36}$/);
      await expect(
        c.query(`INSERT INTO users (email, password_hash) VALUES ($1, 'x')`, [member.email.toUpperCase()]),
      ).rejects.toMatchObject({
        code: '23505',
      });
      await expect(
        c.query(`INSERT INTO users (email, password_hash, age) VALUES ('young@example.com', 'x', 17)`),
      ).rejects.toMatchObject({
        code: '23514',
      });
    });
    await withClient(targetUrl(`${prefix}chat`), async (c) => {
      await expect(
        c.query(
          `INSERT INTO message (id, conversation_id, seq, sender_id, recipient_id, client_id, content) VALUES ($1, $2, 1, $3, $4, 'c', 'x')`,
          [randomUUID(), randomUUID(), member.id, partner],
        ),
      ).rejects.toMatchObject({ code: '23503' });
      await expect(
        c.query(
          `INSERT INTO message (id, conversation_id, seq, sender_id, recipient_id, client_id, content) VALUES ($1, $2, 1, $3, $4, 'c', 'x')`,
          [randomUUID(), conversation, partner, member.id],
        ),
      ).rejects.toMatchObject({ code: '23505' });
    });
  });

  it('refuses to restore into a database that is not empty unless --force, which brings the backup back', async () => {
    const server = (target as OwnPostgresServer).url;
    await withClient(targetUrl(`${prefix}chat`), (c) =>
      c.query('DELETE FROM message WHERE id = $1', [message.id]),
    );

    const refused = await script(RESTORE, [backupDir, '--database-url', server, '--only', 'chat-service']);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(
      `chat-service: 127.0.0.1:${(target as OwnPostgresServer).port}/${prefix}chat holds`,
    );
    expect(
      await withClient(targetUrl(`${prefix}chat`), (c) =>
        c.query('SELECT 1 FROM message WHERE id = $1', [message.id]),
      ),
    ).toMatchObject({ rowCount: 0 });

    const forced = await script(RESTORE, [backupDir, '--database-url', server, '--only', 'chat', '--force']);
    expect(forced).toMatchObject({ code: 0, stderr: '' });
    expect(forced.stdout).toMatch(
      new RegExp(`^chat-service\\s+${prefix}chat\\s+.+\\s+replaced\\s+[\\d.]+$`, 'm'),
    );
    expect(forced.stdout).toContain('Restore complete: 1 database\n');
    expect(await rowCounts(targetUrl(`${prefix}chat`))).toEqual(await rowCounts(sourceUrl('chat')));
  });

  it('refuses a backup whose dump was changed, before it touches any database', async () => {
    const tampered = path.join(workDir, 'tampered');
    await cp(backupDir, tampered, { recursive: true });
    const dump = path.join(tampered, 'profile.dump');
    const bytes = await readFile(dump);
    bytes[bytes.length - 20] ^= 0xff;
    await writeFile(dump, bytes);

    const otherPrefix = `${prefix}tampered_`;
    const result = await script(RESTORE, [
      tampered,
      '--database-url',
      (target as OwnPostgresServer).url,
      '--name-prefix',
      otherPrefix,
    ]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      'profile-service: profile.dump does not match its SHA-256 in the manifest',
    );
    expect(result.stdout).not.toContain('Restore complete');
    expect(await databasesNamed((target as OwnPostgresServer).url, otherPrefix)).toEqual([]);
  });

  it('fails and keeps nothing when a database is missing or pg_dump fails', async () => {
    const missing = await script(BACKUP, [
      '--out',
      outDir,
      '--database-url',
      SOURCE_SERVER,
      '--name-prefix',
      prefix,
      '--database',
      `call=${prefix}nowhere`,
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      `call-service: the database 127.0.0.1:${new URL(SOURCE_SERVER).port || 5432}/${prefix}nowhere does not exist`,
    );
    expect(missing.stdout).not.toContain('Backup complete');

    // A pg_dump that fails on the chat database, after others were dumped.
    const fakeBin = path.join(workDir, 'bin');
    await mkdir(fakeBin);
    await writeFile(
      path.join(fakeBin, 'pg_dump'),
      `#!/bin/sh\ncase "$*" in *${prefix}chat*) echo "pg_dump: error: the disk is full (test)" >&2; exit 1;; esac\nexec "${(target as OwnPostgresServer).binDir}/pg_dump" "$@"\n`,
    );
    await chmod(path.join(fakeBin, 'pg_dump'), 0o755);
    const failed = await script(
      BACKUP,
      ['--out', outDir, '--database-url', SOURCE_SERVER, '--name-prefix', prefix],
      { PG_BIN: fakeBin },
    );
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      `pg_dump of chat-service (127.0.0.1:${new URL(SOURCE_SERVER).port || 5432}/${prefix}chat) failed: pg_dump: error: the disk is full (test)`,
    );
    expect(failed.stdout).not.toContain('Backup complete');
    // Only the first, good backup is there: no partial folder.
    expect(await readdir(outDir)).toEqual([path.basename(backupDir)]);
  });
});
