import { execFile, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { Client } from 'pg';
import { SERVICE_REGISTRY } from '@mate/contracts';
import { createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import { ROOT, rootPath } from './lib/workspace';

const SCRIPT = rootPath('tools/scripts/gdpr.mjs');
const LIB = `file://${rootPath('tools/scripts/lib/gdpr-verify.mjs')}`;
const run = promisify(execFile);

interface Report {
  clean: boolean;
  remains: boolean;
  databases: { service: string; remaining: { table: string; column: string; count: number }[]; error?: string }[];
  redis: { keys: string[] };
  photos: { memberFolder: string | null; orphans: string[] };
}

/**
 * `npm run gdpr -- verify <userId>` (tools/scripts/gdpr.mjs) against a throwaway database standing
 * in for every service's, a Redis namespace and a photo folder: it finds the id wherever it is
 * (a jsonb, a text column, a key, the member's photo folder, a folder no photo row refers to) and
 * says clean once nothing is left.
 */
describe('gdpr verify', () => {
  let db: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let redis: Redis;
  let photoDir: string;
  const member = randomUUID();
  const otherMember = randomUUID();
  const otherPhoto = randomUUID();

  async function sql(text: string, params: unknown[] = []) {
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query(text, params);
    } finally {
      await client.end();
    }
  }

  /** The command, every service's database pointed at the throwaway one. */
  async function verify(userId: string, ...extra: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const args = [SCRIPT, 'verify', userId];
    for (const s of SERVICE_REGISTRY.filter((r) => r.status === 'deployed' && r.database)) args.push('--database', `${s.database}=${db.url}`);
    args.push('--redis', ns.url, '--key-prefix', ns.prefix, '--photo-dir', photoDir, ...extra);
    try {
      const { stdout, stderr } = await run(process.execPath, args, { cwd: ROOT });
      return { code: 0, stdout, stderr };
    } catch (e) {
      const failed = e as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  }

  beforeAll(async () => {
    [db, ns] = await Promise.all([createTestDatabase('gdpr_verify'), createTestRedisNamespace('gdpr_verify')]);
    redis = new Redis(ns.url);
    photoDir = await mkdtemp(path.join(os.tmpdir(), 'mate-gdpr-verify-'));
    await sql('CREATE TABLE photos (id uuid PRIMARY KEY, storage_key text)');
    await sql('CREATE TABLE "Member Notes" (id serial PRIMARY KEY, payload jsonb, note text, about uuid)');
    // Another member's photo, referred to by its row: neither the member's nor an orphan.
    await sql('INSERT INTO photos VALUES ($1, $2)', [otherPhoto, `photos/${otherMember}/${otherPhoto}`]);
    await mkdir(path.join(photoDir, 'photos', otherMember, otherPhoto), { recursive: true });
    await writeFile(path.join(photoDir, 'photos', otherMember, otherPhoto, 'full.webp'), 'x');
  });

  afterAll(async () => {
    await redis?.quit();
    await ns?.cleanup();
    await db?.drop();
    if (photoDir) await rm(photoDir, { recursive: true, force: true });
  });

  it('refuses a missing or non-UUID id with exit code 2', async () => {
    for (const args of [['verify'], ['verify', 'not-an-id'], ['erase', member]]) {
      const res = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8' });
      expect(res.status).toBe(2);
      expect(res.stderr).toContain('Usage: npm run gdpr -- verify <userId>');
    }
  });

  it('names every column, key and folder that still holds the member, and exits 1', async () => {
    await sql(`INSERT INTO "Member Notes" (payload, note) VALUES ($1, 'nothing here'), ('{}', $2)`, [
      JSON.stringify({ pair: `${otherMember}:${member.toUpperCase()}` }),
      `blocked by ${member}`,
    ]);
    await redis.set(`${ns.prefix}:rl:exportUser:${member}`, '1');
    await redis.set(`${ns.prefix}:rl:exportUser:${otherMember}`, '1');
    const orphan = randomUUID();
    await mkdir(path.join(photoDir, 'photos', member, randomUUID()), { recursive: true });
    await mkdir(path.join(photoDir, 'photos', orphan), { recursive: true });

    const res = await verify(member);

    expect(res.code).toBe(1);
    expect(res.stdout).toContain('auth-service: 2 value(s) remain');
    expect(res.stdout).toContain('Member Notes.payload: 1 row(s)');
    expect(res.stdout).toContain('Member Notes.note: 1 row(s)');
    expect(res.stdout).toContain(`${ns.prefix}:rl:exportUser:${member}`);
    expect(res.stdout).toContain(`photos/${member}/ (the member's folder)`);
    expect(res.stdout).toContain(`photos/${orphan}/ (no photo row refers to it)`);
    expect(res.stdout).not.toContain(otherPhoto);
    expect(res.stdout).toContain('NOT CLEAN');

    const json = JSON.parse((await verify(member, '--json')).stdout) as Report;
    expect(json.databases.find((d) => d.service === 'chat-service')?.remaining).toEqual([
      { table: 'Member Notes', column: 'payload', count: 1 },
      { table: 'Member Notes', column: 'note', count: 1 },
    ]);
    expect(json.redis.keys).toEqual([`${ns.prefix}:rl:exportUser:${member}`]);
    expect(json.photos).toMatchObject({ memberFolder: `photos/${member}/`, orphans: [`photos/${orphan}/`] });

    await rm(path.join(photoDir, 'photos', orphan), { recursive: true });
  });

  it('says every service is clean and exits 0 once nothing holds the member', async () => {
    await sql('DELETE FROM "Member Notes"');
    await redis.del(`${ns.prefix}:rl:exportUser:${member}`);
    await rm(path.join(photoDir, 'photos', member), { recursive: true });

    const res = await verify(member);

    expect(res.code).toBe(0);
    for (const s of SERVICE_REGISTRY.filter((r) => r.status === 'deployed' && r.database)) expect(res.stdout).toContain(`${s.name}: clean`);
    expect(res.stdout).toMatch(/redis \(.*\): clean/);
    expect(res.stdout).toMatch(/photo storage \(.*\): clean/);
    expect(res.stdout).not.toMatch(/remain/i);
  });

  it("reports the admin audit trail's ids of the member as kept by policy, not as a leftover (ADR 0018)", async () => {
    const audit = await createTestDatabase('gdpr_verify_audit');
    try {
      const client = new Client({ connectionString: audit.url });
      await client.connect();
      try {
        await client.query('CREATE TABLE audit_log (id uuid PRIMARY KEY, admin_id uuid, target_user_id uuid, target_resource_id text, details jsonb, user_agent text)');
        await client.query('INSERT INTO audit_log VALUES ($1, $2, $3, $4, $5, $6)', [randomUUID(), otherMember, member, member, JSON.stringify({ reason: 'spam' }), 'Chromium']);
      } finally {
        await client.end();
      }
      const res = await verify(member, '--database', `admin=${audit.url}`);
      expect(res.stdout).toContain('admin-service: clean');
      expect(res.stdout).toContain('audit_log.target_user_id: 1 row(s) kept by policy (ADR 0018)');
      expect(res.code).toBe(0);

      // The same id anywhere else in that database is a leftover.
      const other = new Client({ connectionString: audit.url });
      await other.connect();
      await other.query('UPDATE audit_log SET user_agent = $1', [`agent of ${member}`]).finally(() => other.end());
      const dirty = await verify(member, '--database', `admin=${audit.url}`);
      expect(dirty.code).toBe(1);
      expect(dirty.stdout).toContain('audit_log.user_agent: 1 row(s)');
    } finally {
      await audit.drop();
    }
  }, 30_000);

  it('exports the check for other tools: verifyMemberErased', () => {
    const source = `
      import { verifyMemberErased } from '${LIB}';
      const report = await verifyMemberErased('${otherMember}', {
        databases: { 'auth-service': '${db.url}' },
        redis: { url: '${ns.url}', prefix: '${ns.prefix}' },
        photoDir: null,
      });
      process.stdout.write(JSON.stringify(report));`;
    const res = spawnSync(process.execPath, ['--input-type=module', '-e', source], { cwd: ROOT, encoding: 'utf8' });
    expect(res.status).toBe(0);
    const report = JSON.parse(res.stdout) as Report;
    expect(report.clean).toBe(false);
    expect(report.databases).toEqual([expect.objectContaining({ service: 'auth-service', remaining: [{ table: 'photos', column: 'storage_key', count: 1 }] })]);
    expect(report.redis.keys).toEqual([`${ns.prefix}:rl:exportUser:${otherMember}`]);
  });
});
