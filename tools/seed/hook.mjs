// The seeding step of `npm start` (tools/scripts/start.mjs): the seeder in its own process with
// --if-empty, so a fresh install gets the demo population (300 members with photos) and every
// later start does nothing. Its summary is printed; a failure is reported, never fatal.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

/** Resolves to true when the population is there (seeded now or before), else false. */
export function seedIfEmpty({ databaseUrl }) {
  process.stdout.write('[mate] seeding the demo population (only into an empty profiles table)...\n');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(HERE, 'seed.mjs'), '--if-empty'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    const failed = (why) => {
      process.stdout.write(`[mate] the demo population was not seeded (${why}); retry with: npm run seed -- --if-empty\n`);
      resolve(false);
    };
    child.once('error', (e) => failed(e.message));
    child.once('exit', (code, signal) => (code === 0 ? resolve(true) : failed(signal ?? `exit ${code}`)));
  });
}
