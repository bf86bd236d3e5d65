import { parseArgs } from 'node:util';
import { DEPLOYED_SERVICES } from '@mate/contracts';
import { formatResult, runChaos } from './lib/chaos-run';
import { formatSoak, runSoak } from './lib/soak';
import { runScaleCheck } from './scale/check';
import { runScale } from './scale/scale';

/**
 * `npm run chaos` (every fault, a larger population) and `npm run soak` (1,000 connected members
 * for 10 minutes). Exit status 0 when every invariant held and no request failed outside the
 * kill windows (chaos) or nothing failed and no process grew past the limit (soak), else 1.
 */

/** Every service of the registry, the gateway and Redis, in this order. */
export const ALL_FAULTS = [...DEPLOYED_SERVICES.map((s) => s.name), 'gateway', 'redis'];

const log = (line: string) => process.stdout.write(`[chaos] ${line}\n`);

async function main(): Promise<number> {
  const [mode, ...rest] = process.argv.slice(2);
  if (mode === 'chaos') {
    const { values } = parseArgs({
      args: rest,
      options: {
        members: { type: 'string', default: '24' },
        faults: { type: 'string', default: ALL_FAULTS.join(',') },
        'steady-ms': { type: 'string', default: '4000' },
      },
    });
    const faults = String(values.faults).split(',').filter(Boolean);
    const unknown = faults.filter((f) => !ALL_FAULTS.includes(f));
    if (unknown.length) throw new Error(`unknown fault target(s): ${unknown.join(', ')} (known: ${ALL_FAULTS.join(', ')})`);
    const result = await runChaos({
      members: Number(values.members),
      faults,
      steadyMs: Number(values['steady-ms']),
      messageEveryMs: 500,
      callEveryMs: 8_000,
      readEveryMs: 1_500,
      log,
    });
    process.stdout.write(`\n${formatResult(result)}\n`);
    return result.failuresOutside.length === 0 && result.checks.every((c) => c.problems.length === 0) ? 0 : 1;
  }
  if (mode === 'soak') {
    const { values } = parseArgs({
      args: rest,
      options: {
        members: { type: 'string', default: '1000' },
        minutes: { type: 'string', default: '10' },
      },
    });
    const result = await runSoak({ members: Number(values.members), durationMs: Number(values.minutes) * 60_000, log });
    process.stdout.write(`\n${formatSoak(result)}\n`);
    return result.ok ? 0 : 1;
  }
  if (mode === 'scale') return runScale((line) => process.stdout.write(`[scale] ${line}\n`));
  if (mode === 'scale-check') {
    const { values } = parseArgs({ args: rest, options: { short: { type: 'boolean', default: false } } });
    const result = await runScaleCheck({ short: Boolean(values.short), log: (line) => process.stdout.write(`[scale] ${line}\n`) });
    process.stdout.write(`\n${result.report}\n`);
    return result.ok ? 0 : 1;
  }
  process.stderr.write(
    'usage: node tools/chaos/run.cjs chaos [--members N] [--faults a,b] [--steady-ms MS] | soak [--members N] [--minutes M] | scale | scale-check [--short]\n',
  );
  return 2;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`${e instanceof Error ? e.stack : e}\n`);
    process.exit(1);
  },
);
