#!/usr/bin/env node
// `npm run backup`: every service database of the registry, pg_dump's custom format, into
// `backups/<UTC stamp>/` with a manifest.json (service, database, file, bytes, SHA-256, pg_dump
// version, time). Exit 0: all backed up; 1: a database is missing or a dump failed (nothing is kept);
// 2: bad usage. docs/operations/backup.md
//
// Databases default to what `npm start` creates (DATABASE_URL's server with mate_<db>, or
// <DB>_DATABASE_URL per service); options override them:
//   --out <dir>                      where the timestamped folder goes (default: backups/)
//   --database-url <server url>      the server every database is on, named <prefix><db>
//   --name-prefix <prefix>           the databases' name prefix (default mate_)
//   --database <db|service>=<url|name>  one service's database (repeatable)
import path from 'node:path';
import {
  DATABASE_SERVICES,
  backupDatabases,
  checkServerUrl,
  describeUrl,
  fail,
  formatBytes,
  formatTable,
  parseArgs,
  parseDatabaseOverrides,
  resolveTargets,
  BackupError,
  EXIT,
} from './lib/backup.mjs';
import { ROOT } from './lib/platform.mjs';

const USAGE =
  'Usage: npm run backup -- [--out <dir>] [--database-url <server url>] [--name-prefix <prefix>] [--database <db|service>=<url|name>]...\n';

if (process.argv.includes('--help')) {
  process.stdout.write(USAGE);
  process.exit(0);
}

try {
  const options = parseArgs(process.argv.slice(2), {
    single: ['--out', '--database-url', '--name-prefix'],
    repeatable: ['--database'],
  });
  if (options._.length) throw new BackupError(`Unexpected argument: ${options._[0]}`, EXIT.usage);
  const targets = resolveTargets(DATABASE_SERVICES, {
    serverUrl: options['--database-url'] && checkServerUrl(options['--database-url']),
    prefix: options['--name-prefix'],
    overrides: parseDatabaseOverrides(options['--database'], DATABASE_SERVICES),
  });
  const outDir = path.resolve(options['--out'] ?? path.join(ROOT, 'backups'));
  process.stdout.write(
    `Backing up ${targets.length} databases: ${targets.map((t) => describeUrl(t.url)).join(', ')}\n`,
  );
  const { dir, manifest } = await backupDatabases(targets, { outDir });
  const rows = manifest.databases.map((d) => [
    d.service,
    d.database,
    formatBytes(d.bytes),
    d.seconds.toFixed(2),
  ]);
  process.stdout.write(`\n${formatTable(['service', 'database', 'size', 'seconds'], rows)}`);
  const total = manifest.databases.reduce((sum, d) => sum + d.bytes, 0);
  process.stdout.write(
    `\nBackup complete: ${manifest.databases.length} databases, ${formatBytes(total)}, in ${dir}\n`,
  );
} catch (e) {
  fail(e, USAGE);
}
