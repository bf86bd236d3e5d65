#!/usr/bin/env node
// `npm run seed -- --members N`: a demo population for Mate (accounts in auth-service's database,
// profiles, photos and preferences in profile-service's, photo files in its PHOTO_DIR). Plain
// Node, nothing downloaded, nothing built. See tools/seed/README.md.
import { pathToFileURL } from 'node:url';
import { parseOptions, seed, USAGE } from './lib/run.mjs';

export { parseOptions, seed };

async function main() {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : e}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  try {
    await seed(options);
  } catch (e) {
    process.stderr.write(`[seed] failed: ${e instanceof Error ? e.message : e}\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
