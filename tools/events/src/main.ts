import { runEventsCli } from './cli';

// `npm run events -- <command>`: see USAGE in cli.ts and docs/adr/0008-event-operations.md.
runEventsCli(process.argv.slice(2), {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exitCode = 1;
  },
);
