#!/usr/bin/env node
// `npm run admin:grant -- <email>`: gives an existing account the admin role, at once on its live
// sessions too. Uses auth-service's own command against DATABASE_URL (default: the local mate_auth).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { nx, run, ROOT, withDatabase } from './lib/platform.mjs';

const email = process.argv[2];
if (!email) {
  process.stderr.write('Usage: npm run admin:grant -- <email>\n');
  process.exit(2);
}
if (!existsSync(path.join(ROOT, 'dist/apps/auth-service/main.js'))) nx(['run', 'auth-service:build']);
const databaseUrl =
  process.env.AUTH_DATABASE_URL ?? withDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'mate_auth');
try {
  run(process.execPath, ['dist/apps/auth-service/main.js', 'grant-admin', email], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
  });
} catch {
  process.exit(1);
}
