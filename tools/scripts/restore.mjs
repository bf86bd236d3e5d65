#!/usr/bin/env node
// `npm run restore -- <backup dir>`: checks every dump against the backup's manifest.json (size and
// SHA-256), then restores each into its database, creating it when missing. A database that holds
// tables is refused unless --force (then the backup's objects replace theirs: pg_restore --clean
// --if-exists). Each database is restored in one transaction (pg_restore --single-transaction
// --exit-on-error --no-owner --no-privileges). docs/operations/backup.md
//
// Exit 0: restored; 1: a database is unreachable or pg_restore failed; 2: bad usage; 3: the backup
// does not verify (nothing restored); 4: a target is not empty and --force was not given (nothing restored).
//
// Targets default to the backup's database names on DATABASE_URL's server (or <DB>_DATABASE_URL per
// service); options override them:
//   --database-url <server url>      the server to restore into (databases keep the backup's names)
//   --name-prefix <prefix>           name them <prefix><db> instead
//   --database <db|service>=<url|name>  one service's target (repeatable)
//   --only <db|service>              restore only this service (repeatable)
//   --force                          restore into databases that are not empty
import path from 'node:path';
import {
  checkServerUrl,
  describeUrl,
  fail,
  findDatabaseService,
  formatBytes,
  formatTable,
  parseArgs,
  parseDatabaseOverrides,
  readManifest,
  resolveTargets,
  restoreDatabases,
  BackupError,
  EXIT,
} from './lib/backup.mjs';

const USAGE =
  'Usage: npm run restore -- <backup dir> [--database-url <server url>] [--name-prefix <prefix>] [--database <db|service>=<url|name>]... [--only <db|service>]... [--force]\n';

if (process.argv.includes('--help')) {
  process.stdout.write(USAGE);
  process.exit(0);
}

try {
  const options = parseArgs(process.argv.slice(2), {
    flags: ['--force'],
    single: ['--database-url', '--name-prefix'],
    repeatable: ['--database', '--only'],
  });
  if (options._.length !== 1)
    throw new BackupError(
      options._.length ? `Unexpected argument: ${options._[1]}` : 'Which backup folder?',
      EXIT.usage,
    );
  const dir = path.resolve(options._[0]);
  const manifest = await readManifest(dir);
  const inBackup = manifest.databases.map((d) => ({ service: d.service, db: d.db }));
  const only = options['--only'].map((name) => {
    const found = findDatabaseService(name, inBackup);
    if (!found)
      throw new BackupError(
        `--only ${name}: the backup holds ${inBackup.map((s) => s.service).join(', ')}`,
        EXIT.usage,
      );
    return found.db;
  });
  const entries = manifest.databases.filter((d) => !only.length || only.includes(d.db));
  const targets = resolveTargets(
    entries.map((d) => ({ service: d.service, db: d.db })),
    {
      serverUrl: options['--database-url'] && checkServerUrl(options['--database-url']),
      prefix: options['--name-prefix'],
      names: Object.fromEntries(entries.map((d) => [d.db, d.database])),
      overrides: parseDatabaseOverrides(options['--database'], inBackup),
    },
  );
  process.stdout.write(
    `Restoring the backup of ${manifest.createdAt} (${manifest.pgDumpVersion}) into: ${targets.map((t) => describeUrl(t.url)).join(', ')}\n`,
  );
  const restored = await restoreDatabases(dir, entries, targets, { force: options['--force'] === true });
  const rows = restored.map((r) => [
    r.service,
    r.database,
    formatBytes(r.bytes),
    r.created ? 'created' : r.replaced ? 'replaced' : 'empty',
    r.seconds.toFixed(2),
  ]);
  process.stdout.write(`\n${formatTable(['service', 'database', 'size', 'target', 'seconds'], rows)}`);
  process.stdout.write(
    `\nRestore complete: ${restored.length} database${restored.length === 1 ? '' : 's'}\n`,
  );
} catch (e) {
  fail(e, USAGE);
}
