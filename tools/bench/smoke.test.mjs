// Every bench at a smoke size, so a later change cannot break one unnoticed (issue 27: "benches
// that cannot rot"; bench:events had stopped starting when new events joined the catalogue).
// Each run must start, measure and write its result; no timing is asserted here: the figures of a
// smoke run on a busy machine mean nothing, the full runs in tools/bench/README.md do.
// Run by `nx run bench:smoke` (npm test's last stage); the services the benches start are built first
// (project.json dependsOn). Node's test runner, plain ESM.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'mate-bench-smoke-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A finite number above zero somewhere in `value`: the bench measured something. */
function holdsAMeasurement(value) {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0;
  if (Array.isArray(value)) return value.some(holdsAMeasurement);
  if (value && typeof value === 'object') return Object.values(value).some(holdsAMeasurement);
  return false;
}

/** Runs `node <script> ...args` with its result sent to a file of its own; resolves with what it wrote. */
function runBench(name, script, args) {
  const resultFile = path.join(scratch, `${name}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        BENCH_RESULT_FILE: resultFile,
        NX_DAEMON: 'false',
        NX_NO_CLOUD: 'true',
        NX_TUI: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk) => {
      output = (output + chunk).slice(-8000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${name} exited with ${code}:\n${output}`));
      let result;
      try {
        result = JSON.parse(readFileSync(resultFile, 'utf8'));
      } catch (error) {
        return reject(new Error(`${name} wrote no readable result (${error.message}):\n${output}`));
      }
      resolve({ result, output });
    });
  });
}

// Sizes: seconds each on the two-core machine (about two minutes in all, one after another: they
// share PostgreSQL, Redis and the CPUs, and some take fixed ports).
const BENCHES = [
  {
    name: 'bench:gateway',
    script: 'tools/bench/gateway/run.mjs',
    args: ['--duration', '1', '--connections', '2', '--rounds', '1'],
    measured: (r) => holdsAMeasurement(r.direct) && holdsAMeasurement(r.gateway) && r.ratio > 0,
  },
  {
    name: 'bench:events',
    script: 'tools/bench/events/run.cjs',
    args: ['--seconds', '1', '--rates', '20'],
    // Every event the profile service published was handled by the consumer.
    measured: (r) =>
      r.results.length === 1 && r.results[0].sent > 0 && r.results[0].handled === r.results[0].sent,
  },
  {
    name: 'bench:photos',
    script: 'tools/bench/photos/run.cjs',
    args: ['--parallel', '2'],
    measured: (r) => r.results.length > 0 && holdsAMeasurement(r.results) && r.classifier.msPerPhoto > 0,
  },
  {
    name: 'bench:matching-quality',
    script: 'tools/bench/matching-quality/run.cjs',
    args: ['--members', '200', '--rounds', '2', '--history', '1'],
    measured: (r) =>
      r.results.length === 4 && holdsAMeasurement(r.results) && Number.isFinite(r.overHeuristic),
  },
  {
    name: 'bench:suggestions',
    script: 'tools/bench/suggestions/run.cjs',
    // A database of its own: the default (mate_bench_matching) may be someone's kept one.
    args: ['--members', '2000', '--seconds', '1', '--concurrency', '1', '--like-concurrency', '1', '--database', 'mate_bench_smoke'],
    measured: (r) => r.members === 2000 && holdsAMeasurement(r.phases) && holdsAMeasurement(r.likes),
  },
  {
    name: 'bench:chat',
    script: 'tools/bench/chat/run.cjs',
    args: [
      '--members',
      '4',
      '--rate',
      '20',
      '--seconds',
      '1',
      '--step-seconds',
      '1',
      '--ramp-start',
      '20',
      '--max-rate',
      '40',
    ],
    measured: (r) => holdsAMeasurement(r.mate) && holdsAMeasurement(r.relay),
  },
  {
    name: 'bench:match-window',
    script: 'tools/bench/match-window/run.cjs',
    args: ['--probes', '5', '--rate', '20', '--seconds', '1'],
    // Every probe's message got in, and the time from the like's answer was measured.
    measured: (r) => r.phases.length === 2 && r.phases.every((p) => p.failed === 0 && p.usableP99 > 0),
  },
];

describe('every bench at a smoke size', { concurrency: 1 }, () => {
  for (const bench of BENCHES) {
    it(`${bench.name} starts, measures and writes its result`, { timeout: 300_000 }, async () => {
      const { result, output } = await runBench(bench.name, bench.script, bench.args);
      assert.ok(
        bench.measured(result),
        `${bench.name} wrote a result without its measurements:\n${JSON.stringify(result).slice(0, 2000)}\n${output}`,
      );
    });
  }
});
