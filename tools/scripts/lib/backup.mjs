// `npm run backup` / `npm run restore` (issue 14, docs/operations/backup.md): every service's
// database through pg_dump's custom format into one folder with a manifest (sizes and SHA-256 of
// each dump), and back through pg_restore after the manifest has been checked.
//
// A backup folder is complete or absent: the dumps are written to a hidden `.<stamp>.partial`
// folder, which becomes `<stamp>` only once every database is dumped and the manifest is written;
// a failure deletes it. A restore verifies every selected dump before it touches a database, and
// looks at every target before it restores into any of them.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { SERVICES, withDatabase } from './platform.mjs';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 'mate-backup/1';
/** The server `npm start` uses when DATABASE_URL is not set. */
export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
/** `npm start` names each service's database `mate_<registry database>`. */
export const DEFAULT_NAME_PREFIX = 'mate_';

/** Exit codes of both commands (0: done). */
export const EXIT = {
  /** A database is missing or unreachable, pg_dump / pg_restore failed. */
  failed: 1,
  usage: 2,
  /** The backup folder does not verify: no manifest, a dump missing, or a size or SHA-256 that differs. */
  unverified: 3,
  /** A target database holds tables and --force was not given. */
  notEmpty: 4,
};

export class BackupError extends Error {
  constructor(message, exitCode = EXIT.failed) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The registry's services that own a database: what a backup holds. */
export const DATABASE_SERVICES = SERVICES.filter((s) => s.db).map((s) => ({ service: s.name, db: s.db }));

/** A service by its name or its registry database name (`auth-service` or `auth`). */
export function findDatabaseService(name, services = DATABASE_SERVICES) {
  return services.find((s) => s.service === name || s.db === name);
}

/** host:port/database of a connection URL, for messages: never its user or password. */
export function describeUrl(url) {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}${u.pathname}`;
}

/** `20261123T214005Z`: sorts by time, safe in a file name. */
export function utcStamp(date = new Date()) {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

/**
 * Where each service's database is, most specific first:
 * - `overrides[db]` (`--database <db|service>=<url|name>`): a URL, or a database name on the server;
 * - with an explicit server (`--database-url`): `names[db]` or `<prefix><db>` on it;
 * - `<DB>_DATABASE_URL` (e.g. AUTH_DATABASE_URL, the per-service convention of the scripts);
 * - DATABASE_URL's server (default the local one) with `names[db]` or `<prefix><db>` (what `npm start` creates).
 * `names` carries a manifest's database names, so a restore recreates the databases it backed up.
 */
export function resolveTargets(
  services,
  { env = process.env, serverUrl, prefix, names = {}, overrides = {} } = {},
) {
  const server = serverUrl ?? env.DATABASE_URL ?? DEFAULT_SERVER_URL;
  const nameOf = (s) =>
    prefix === undefined ? (names[s.db] ?? `${DEFAULT_NAME_PREFIX}${s.db}`) : `${prefix}${s.db}`;
  return services.map((s) => {
    const override = overrides[s.db];
    let url;
    if (override) url = override.includes('://') ? override : withDatabase(server, override);
    else if (serverUrl) url = withDatabase(serverUrl, nameOf(s));
    else url = env[`${s.db.toUpperCase()}_DATABASE_URL`] ?? withDatabase(server, nameOf(s));
    return { ...s, url, database: decodeURIComponent(new URL(url).pathname.slice(1)) };
  });
}

/** The PostgreSQL client tools: from PG_BIN when set (a folder), else the PATH. */
function toolPath(tool, env = process.env) {
  return env.PG_BIN ? path.join(env.PG_BIN, tool) : tool;
}

/**
 * libpq takes the password from PGPASSWORD rather than the command line, where every user of the
 * machine could read it in the process list.
 */
function connectionArgs(url) {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/** Runs a client tool to its end; its output is kept for the error message, never echoed. */
function runTool(tool, args, extraEnv = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(toolPath(tool), args, {
      env: { ...process.env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.once('error', (e) =>
      reject(
        new BackupError(
          e.code === 'ENOENT'
            ? `${tool} was not found${process.env.PG_BIN ? ` in PG_BIN (${process.env.PG_BIN})` : ' on the PATH'}: install the PostgreSQL client tools (apt-get install -y postgresql-client) in the server's major version or newer`
            : `${tool} could not be started: ${e.message}`,
        ),
      ),
    );
    child.once('close', (code) => resolve({ code, stdout, stderr: stderr.trim() }));
  });
}

/** `pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)`. */
export async function toolVersion(tool) {
  const { code, stdout, stderr } = await runTool(tool, ['--version']);
  if (code !== 0) throw new BackupError(`${tool} --version failed: ${stderr}`);
  return stdout.trim();
}

export async function sha256File(file) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
}

async function withClient(url, work) {
  const client = new pg.Client({
    connectionString: url,
    application_name: 'mate-backup',
    connectionTimeoutMillis: 10000,
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** What is in a database: 'missing', or the number of tables, views and sequences outside the system schemas. */
export async function inspectDatabase(url) {
  try {
    return await withClient(url, async (client) => {
      const { rows } = await client.query(
        `SELECT count(*)::int AS relations
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
            AND n.nspname NOT IN ('pg_catalog', 'information_schema')
            AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'`,
      );
      const { rows: version } = await client.query('SHOW server_version');
      return { exists: true, relations: rows[0].relations, serverVersion: version[0].server_version };
    });
  } catch (e) {
    // 3D000: invalid_catalog_name, the database does not exist (the server answered).
    if (e.code === '3D000') return { exists: false, relations: 0 };
    throw new BackupError(`${describeUrl(url)} is not reachable: ${e.message}`);
  }
}

/** Dumps every target into `<outDir>/<UTC stamp>/`; returns the folder and its manifest. */
export async function backupDatabases(targets, { outDir, now = new Date(), onDumped = () => undefined }) {
  const pgDumpVersion = await toolVersion('pg_dump');
  const problems = [];
  let serverVersion;
  for (const t of targets) {
    const found = await inspectDatabase(t.url).catch((e) => ({ error: e.message }));
    if (found.error) problems.push(`${t.service}: ${found.error}`);
    else if (!found.exists) problems.push(`${t.service}: the database ${describeUrl(t.url)} does not exist`);
    else serverVersion ??= found.serverVersion;
  }
  if (problems.length) throw new BackupError(`Nothing was backed up:\n  ${problems.join('\n  ')}`);

  const stamp = utcStamp(now);
  const dir = path.resolve(outDir, stamp);
  if (existsSync(dir)) throw new BackupError(`${dir} exists already: nothing was backed up`);
  const partial = path.resolve(outDir, `.${stamp}.partial`);
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    const databases = [];
    for (const t of targets) {
      const file = `${t.db}.dump`;
      const started = performance.now();
      const { dbname, env } = connectionArgs(t.url);
      const result = await runTool(
        'pg_dump',
        ['--format=custom', '--file', path.join(partial, file), '--dbname', dbname],
        env,
      );
      if (result.code !== 0)
        throw new BackupError(`pg_dump of ${t.service} (${describeUrl(t.url)}) failed: ${result.stderr}`);
      const seconds = Math.round((performance.now() - started) / 10) / 100;
      const entry = {
        service: t.service,
        db: t.db,
        database: t.database,
        file,
        bytes: (await stat(path.join(partial, file))).size,
        sha256: await sha256File(path.join(partial, file)),
        seconds,
      };
      databases.push(entry);
      onDumped(entry);
    }
    const manifest = {
      format: MANIFEST_FORMAT,
      createdAt: now.toISOString(),
      pgDumpVersion,
      serverVersion,
      databases,
    };
    await writeFile(path.join(partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    await rename(partial, dir);
    return { dir, manifest };
  } catch (e) {
    await rm(partial, { recursive: true, force: true });
    throw e;
  }
}

/** The manifest of a backup folder, checked for shape (not yet against the files). */
export async function readManifest(dir) {
  const file = path.join(dir, MANIFEST_FILE);
  let manifest;
  try {
    manifest = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    throw new BackupError(
      e.code === 'ENOENT'
        ? `${file} is missing: not a complete backup folder`
        : `${file} cannot be read: ${e.message}`,
      EXIT.unverified,
    );
  }
  const valid =
    manifest?.format === MANIFEST_FORMAT &&
    Array.isArray(manifest.databases) &&
    manifest.databases.every(
      (d) =>
        typeof d.service === 'string' &&
        /^[a-z0-9_-]+$/.test(d.db ?? '') &&
        typeof d.database === 'string' &&
        typeof d.file === 'string' &&
        path.basename(d.file) === d.file &&
        Number.isInteger(d.bytes) &&
        /^[0-9a-f]{64}$/.test(d.sha256 ?? ''),
    );
  if (!valid) throw new BackupError(`${file} is not a ${MANIFEST_FORMAT} manifest`, EXIT.unverified);
  return manifest;
}

/** Problems of the entries' dump files against the manifest (missing, size, SHA-256); none: they verify. */
export async function verifyDumps(dir, entries) {
  const problems = [];
  for (const d of entries) {
    const file = path.join(dir, d.file);
    const size = await stat(file).then(
      (s) => s.size,
      () => null,
    );
    if (size === null) problems.push(`${d.service}: ${d.file} is missing`);
    else if (size !== d.bytes)
      problems.push(`${d.service}: ${d.file} has ${size} bytes, the manifest says ${d.bytes}`);
    else if ((await sha256File(file)) !== d.sha256)
      problems.push(`${d.service}: ${d.file} does not match its SHA-256 in the manifest`);
  }
  return problems;
}

/**
 * Restores the backup's entries into their targets (`targets[i]` for `entries[i]`): verifies every
 * dump, looks at every target (refusing non-empty ones without `force`), creates the missing
 * databases, then runs pg_restore (one transaction per database, stopping at the first error).
 */
export async function restoreDatabases(
  dir,
  entries,
  targets,
  { force = false, onRestored = () => undefined },
) {
  const problems = await verifyDumps(dir, entries);
  if (problems.length)
    throw new BackupError(
      `The backup does not verify; nothing was restored:\n  ${problems.join('\n  ')}`,
      EXIT.unverified,
    );
  await toolVersion('pg_restore');

  const states = [];
  for (const t of targets) states.push(await inspectDatabase(t.url));
  const occupied = targets.filter((t, i) => states[i].relations > 0);
  if (occupied.length && !force) {
    throw new BackupError(
      `Not empty, so nothing was restored (--force replaces the backup's objects in them):\n  ${occupied
        .map(
          (t) =>
            `${t.service}: ${describeUrl(t.url)} holds ${states[targets.indexOf(t)].relations} tables, views or sequences`,
        )
        .join('\n  ')}`,
      EXIT.notEmpty,
    );
  }

  const restored = [];
  for (const [i, t] of targets.entries()) {
    const entry = entries[i];
    const started = performance.now();
    const created = !states[i].exists;
    if (created) {
      await withClient(withDatabase(t.url, 'postgres'), (client) =>
        client.query(`CREATE DATABASE "${t.database.replaceAll('"', '""')}"`),
      ).catch((e) => {
        throw new BackupError(`${t.service}: creating ${describeUrl(t.url)} failed: ${e.message}`);
      });
    }
    const replace = states[i].relations > 0;
    const { dbname, env } = connectionArgs(t.url);
    const args = ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction'];
    if (replace) args.push('--clean', '--if-exists');
    const result = await runTool(
      'pg_restore',
      [...args, '--dbname', dbname, path.join(dir, entry.file)],
      env,
    );
    if (result.code !== 0) {
      const done = restored.length
        ? ` (restored before it: ${restored.map((r) => r.service).join(', ')})`
        : '';
      throw new BackupError(
        `pg_restore into ${t.service} (${describeUrl(t.url)}) failed and was rolled back${created ? ' (the database was created, empty)' : ''}${done}: ${result.stderr}`,
      );
    }
    const row = {
      service: t.service,
      database: t.database,
      bytes: entry.bytes,
      created,
      replaced: replace,
      seconds: Math.round((performance.now() - started) / 10) / 100,
    };
    restored.push(row);
    onRestored(row);
  }
  return restored;
}

export function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** A plain text table: the header, a rule, one line per row. */
export function formatTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) => String(c).padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}

/**
 * The options both commands share. Returns the value of each; `rest` holds what is left
 * (positional arguments, or an unknown option for the caller to refuse).
 */
export function parseArgs(argv, { flags = [], repeatable = [], single = [] }) {
  const options = { _: [] };
  for (const r of repeatable) options[r] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (flags.includes(arg)) options[arg] = true;
    else if (single.includes(arg) || repeatable.includes(arg)) {
      const value = argv[++i];
      if (value === undefined || value === '' || value.startsWith('--'))
        throw new BackupError(`${arg} needs a value`, EXIT.usage);
      if (repeatable.includes(arg)) options[arg].push(value);
      else options[arg] = value;
    } else if (arg.startsWith('--')) throw new BackupError(`Unknown option: ${arg}`, EXIT.usage);
    else options._.push(arg);
  }
  return options;
}

/** `--database <db|service>=<url|name>` values as { <db>: <url|name> }. */
export function parseDatabaseOverrides(values, services) {
  const overrides = {};
  for (const spec of values) {
    const eq = spec.indexOf('=');
    const service = eq > 0 ? findDatabaseService(spec.slice(0, eq), services) : undefined;
    if (!service || eq === spec.length - 1) {
      throw new BackupError(
        `--database takes <db|service>=<url|database name> of a service with a database: ${spec}`,
        EXIT.usage,
      );
    }
    overrides[service.db] = spec.slice(eq + 1);
  }
  return overrides;
}

export function checkServerUrl(url) {
  try {
    const u = new URL(url);
    if (!['postgres:', 'postgresql:'].includes(u.protocol)) throw new Error('not postgres://');
  } catch {
    throw new BackupError(`--database-url takes a postgres:// server URL`, EXIT.usage);
  }
  return url;
}

/** Prints the error and ends the command with its exit code. */
export function fail(e, usage) {
  const code = e instanceof BackupError ? e.exitCode : EXIT.failed;
  process.stderr.write(`${e instanceof BackupError ? e.message : (e?.stack ?? String(e))}\n`);
  if (code === EXIT.usage && usage) process.stderr.write(usage);
  process.exit(code);
}
