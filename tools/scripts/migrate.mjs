#!/usr/bin/env node
// `npm run migrate`: creates each service's database if missing and applies its migrations
// (what `npm start` does before starting the services; deployments run `main.js migrate` instead).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ensureDatabases, ensurePostgres, log, nx, ROOT, run, SERVICES, SERVICE_DATABASES, withDatabase } from './lib/platform.mjs';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
await ensurePostgres(DATABASE_URL);
if (SERVICES.some((s) => !existsSync(path.join(ROOT, `dist/apps/${s.name}/main.js`)))) {
  nx(['run-many', '-t', 'build', '-p', ...SERVICES.map((s) => s.name)]);
}
await ensureDatabases(DATABASE_URL, SERVICE_DATABASES.map((db) => `mate_${db}`));
for (const s of SERVICES.filter((svc) => svc.db)) {
  log(`migrating ${s.name} (mate_${s.db})`);
  run(process.execPath, [`dist/apps/${s.name}/main.js`, 'migrate'], {
    env: { ...process.env, DATABASE_URL: withDatabase(DATABASE_URL, `mate_${s.db}`), LOG_LEVEL: 'warn' },
  });
}
