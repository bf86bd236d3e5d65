// Runs one of auth-service's own account commands (`node dist/apps/auth-service/main.js <command> <email>`)
// against AUTH_DATABASE_URL, or DATABASE_URL's server with the local mate_auth database: what
// `npm run admin:grant` and `npm run admin:revoke` share.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { nx, run, ROOT, withDatabase } from './platform.mjs';

/** `npm run <script> -- <email>`: exits 2 without an email, 1 when the command fails. */
export function runAuthAccountCommand(script, command) {
  const email = process.argv[2];
  if (!email) {
    process.stderr.write(`Usage: npm run ${script} -- <email>\n`);
    process.exit(2);
  }
  if (!existsSync(path.join(ROOT, 'dist/apps/auth-service/main.js'))) nx(['run', 'auth-service:build']);
  const databaseUrl =
    process.env.AUTH_DATABASE_URL ?? withDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'mate_auth');
  try {
    run(process.execPath, ['dist/apps/auth-service/main.js', command, email], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    });
  } catch {
    process.exit(1);
  }
}
