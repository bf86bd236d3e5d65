// `npm run gdpr -- verify <userId>` (issue 12, docs/adr/0016-member-data.md): after an account
// deletion, looks for any trace of the member left in the deployment: every column of every table of
// every service database (cast to text), Redis keys under the deployment's prefix, and the local
// photo storage (the member's folder and photo folders no photo row refers to).
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import Redis from 'ioredis';
import { ROOT, SERVICES, withDatabase } from './platform.mjs';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isMemberId = (text) => typeof text === 'string' && UUID.test(text);

/** The deployment `npm start` runs: its databases, Redis, key prefix and photo folder (the services' defaults). */
export function defaultTargets(env = process.env) {
  const server = env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const databases = Object.fromEntries(
    SERVICES.filter((s) => s.db).map((s) => [s.name, env[`${s.db.toUpperCase()}_DATABASE_URL`] ?? withDatabase(server, `mate_${s.db}`)]),
  );
  return {
    databases,
    redis: {
      url: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      prefix: env.KEY_PREFIX ?? 'mate',
      // A Redis Cluster (ADR 0032): its seed nodes; every master is scanned.
      clusterNodes: env.REDIS_CLUSTER_NODES || null,
    },
    // profile-service's PHOTO_DIR default, relative to where npm start runs the services (the repository).
    photoDir: path.resolve(ROOT, env.PHOTO_DIR ?? '.data/uploads'),
    photoService: 'profile-service',
  };
}

/**
 * Columns that keep a deleted member's id by policy, not by mistake (docs/adr/0018-admin.md): the
 * admin audit trail is append-only in the database and holds ids only (names and emails are
 * resolved when it is read, so an erased member's entries name nobody). Reported as retained.
 */
export const RETAINED_BY_POLICY = {
  'admin-service': { audit_log: ['admin_id', 'target_user_id', 'target_resource_id', 'details'] },
};

const retainedByPolicy = (service, { table, column }) => Boolean(RETAINED_BY_POLICY[service]?.[table]?.includes(column));

const quoteIdent = (name) => `"${String(name).replaceAll('"', '""')}"`;

/** Counts per table.column of rows whose value, as text, contains the id (lower case). */
export async function scanDatabase(url, userId) {
  const client = new pg.Client({ connectionString: url, application_name: 'mate-gdpr-verify' });
  await client.connect();
  try {
    const { rows: columns } = await client.query(
      `SELECT c.table_name, c.column_name
         FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        ORDER BY c.table_name, c.ordinal_position`,
    );
    const byTable = new Map();
    for (const { table_name: table, column_name: column } of columns) {
      if (!byTable.has(table)) byTable.set(table, []);
      byTable.get(table).push(column);
    }
    const pattern = `%${userId.toLowerCase()}%`;
    const remaining = [];
    for (const [table, cols] of byTable) {
      // One pass over each table: a count per column.
      const counts = cols.map((c, i) => `count(*) FILTER (WHERE lower(${quoteIdent(c)}::text) LIKE $1)::int AS c${i}`).join(', ');
      const { rows } = await client.query(`SELECT ${counts} FROM public.${quoteIdent(table)}`, [pattern]);
      cols.forEach((column, i) => {
        const count = rows[0][`c${i}`];
        if (count > 0) remaining.push({ table, column, count });
      });
    }
    return remaining;
  } finally {
    await client.end();
  }
}

/** Keys under the prefix whose name contains the id: on one server, or on every master of a Redis Cluster (`clusterNodes`). */
export async function scanRedis({ url, prefix, clusterNodes = null }, userId) {
  const options = { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null };
  const seeds = (clusterNodes ?? '').split(',').filter(Boolean).map((n) => ({ host: n.slice(0, n.lastIndexOf(':')), port: Number(n.slice(n.lastIndexOf(':') + 1)) }));
  const credentials = new URL(url);
  const client = seeds.length
    ? new Redis.Cluster(seeds, {
        redisOptions: { ...options, username: credentials.username || undefined, password: decodeURIComponent(credentials.password) || undefined },
        clusterRetryStrategy: () => null,
        lazyConnect: true,
      })
    : new Redis(url, options);
  await client.connect();
  try {
    const id = userId.toLowerCase();
    const found = [];
    // A cluster's keys are spread over its masters: each one is scanned whole.
    for (const node of seeds.length ? client.nodes('master') : [client]) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix.replace(/[\\*?[\]]/g, '\\$&')}:*`, 'COUNT', 1000);
        found.push(...keys.filter((k) => k.toLowerCase().includes(id)));
        cursor = next;
      } while (cursor !== '0');
    }
    return found.sort();
  } finally {
    client.disconnect();
  }
}

/**
 * The member's photo folder (`photos/<userId>/`, where profile-service keeps every upload since
 * issue 12) and photo folders no photo row refers to: a photo of the old layout (`photos/<photoId>`)
 * whose row is gone but whose files stayed cannot be told apart from the member's.
 */
export async function scanPhotoStorage(photoDir, profileDatabaseUrl, userId) {
  const photos = path.join(photoDir, 'photos');
  const entries = await readdir(photos, { withFileTypes: true }).catch((e) => {
    if (e.code === 'ENOENT') return [];
    throw e;
  });
  const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  const memberFolder = folders.some((f) => f.toLowerCase() === userId.toLowerCase()) ? `photos/${userId.toLowerCase()}/` : null;
  // Without profile-service's database nothing says which folders are photos of someone.
  if (!profileDatabaseUrl) return { memberFolder, orphans: [], orphansChecked: false };
  let keys = new Set();
  {
    const client = new pg.Client({ connectionString: profileDatabaseUrl, application_name: 'mate-gdpr-verify' });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT DISTINCT storage_key FROM photos WHERE storage_key IS NOT NULL');
      keys = new Set(rows.map((r) => r.storage_key.replace(/\/+$/, '')));
    } finally {
      await client.end();
    }
  }
  const referenced = (key) => keys.has(key);
  const orphans = [];
  for (const folder of folders) {
    const key = `photos/${folder}`;
    if (referenced(key)) continue;
    if (!UUID.test(folder)) continue;
    // A member's folder (photos/<userId>/<photoId>): each photo folder in it needs its row.
    const inner = (await readdir(path.join(photos, folder), { withFileTypes: true })).filter((e) => e.isDirectory());
    const memberKeys = [...keys].filter((k) => k.startsWith(`${key}/`));
    if (memberKeys.length === 0) {
      if (folder.toLowerCase() !== userId.toLowerCase()) orphans.push(`${key}/`);
      continue;
    }
    for (const photo of inner) if (!referenced(`${key}/${photo.name}`)) orphans.push(`${key}/${photo.name}/`);
  }
  return { memberFolder, orphans: orphans.sort(), orphansChecked: true };
}

/**
 * Checks every target and answers what remains: `{ clean, databases: [{ service, url, remaining,
 * error }], redis: { keys, error }, photos: { dir, memberFolder, orphans, error } }`. A target that
 * could not be checked has `error` (and the result is not clean). Database URLs are reported
 * without their password.
 */
export async function verifyMemberErased(userId, targets = defaultTargets()) {
  if (!isMemberId(userId)) throw new Error(`not a member id (UUID): ${userId}`);
  const errorOf = (e) => (e instanceof Error ? e.message : String(e));
  const databases = await Promise.all(
    Object.entries(targets.databases).map(async ([service, url]) => {
      try {
        const found = await scanDatabase(url, userId);
        return {
          service,
          url: redacted(url),
          remaining: found.filter((r) => !retainedByPolicy(service, r)),
          retained: found.filter((r) => retainedByPolicy(service, r)),
        };
      } catch (e) {
        return { service, url: redacted(url), remaining: [], retained: [], error: errorOf(e) };
      }
    }),
  );
  let redis = null;
  if (targets.redis) {
    try {
      redis = { prefix: targets.redis.prefix, keys: await scanRedis(targets.redis, userId) };
    } catch (e) {
      redis = { prefix: targets.redis.prefix, keys: [], error: errorOf(e) };
    }
  }
  let photos = null;
  if (targets.photoDir) {
    try {
      photos = { dir: targets.photoDir, ...(await scanPhotoStorage(targets.photoDir, targets.databases[targets.photoService ?? 'profile-service'], userId)) };
    } catch (e) {
      photos = { dir: targets.photoDir, memberFolder: null, orphans: [], error: errorOf(e) };
    }
  }
  const unchecked = databases.some((d) => d.error) || Boolean(redis?.error) || Boolean(photos?.error);
  const remains =
    databases.some((d) => d.remaining.length > 0) || (redis?.keys.length ?? 0) > 0 || Boolean(photos?.memberFolder) || (photos?.orphans.length ?? 0) > 0;
  return { userId: userId.toLowerCase(), clean: !remains && !unchecked, remains, unchecked, databases, redis, photos };
}

function redacted(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}

/** The report as the command prints it: a line per service and store, with what remains under it. */
export function formatReport(report) {
  const lines = [`Member ${report.userId}:`];
  for (const d of report.databases) {
    if (d.error) lines.push(`  ${d.service}: NOT CHECKED (${d.error})`);
    else if (d.remaining.length === 0) {
      lines.push(`  ${d.service}: clean`);
      for (const r of d.retained ?? []) lines.push(`    ${r.table}.${r.column}: ${r.count} row(s) kept by policy (ADR 0018)`);
    }
    else {
      lines.push(`  ${d.service}: ${d.remaining.reduce((n, r) => n + r.count, 0)} value(s) remain`);
      for (const r of d.remaining) lines.push(`    ${r.table}.${r.column}: ${r.count} row(s)`);
    }
  }
  if (report.redis) {
    const r = report.redis;
    if (r.error) lines.push(`  redis (${r.prefix}:*): NOT CHECKED (${r.error})`);
    else if (r.keys.length === 0) lines.push(`  redis (${r.prefix}:*): clean`);
    else {
      lines.push(`  redis (${r.prefix}:*): ${r.keys.length} key(s) remain`);
      for (const k of r.keys) lines.push(`    ${k}`);
    }
  }
  if (report.photos) {
    const p = report.photos;
    if (p.error) lines.push(`  photo storage (${p.dir}): NOT CHECKED (${p.error})`);
    else if (!p.memberFolder && p.orphans.length === 0) lines.push(`  photo storage (${p.dir}): clean${p.orphansChecked ? '' : ' (member folder only: no profile-service database to find orphans)'}`);
    else {
      lines.push(`  photo storage (${p.dir}): files remain`);
      if (p.memberFolder) lines.push(`    ${p.memberFolder} (the member's folder)`);
      for (const o of p.orphans) lines.push(`    ${o} (no photo row refers to it)`);
    }
  }
  lines.push(
    report.clean
      ? 'Clean: no trace of the member was found.'
      : report.remains
        ? 'NOT CLEAN: traces of the member remain (above).'
        : 'UNKNOWN: some stores could not be checked (above).',
  );
  return `${lines.join('\n')}\n`;
}
