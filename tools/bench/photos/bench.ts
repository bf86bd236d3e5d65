// `node tools/bench/photos/run.cjs`: what parallel photo uploads cost profile-service (issue 7
// item 8). For each configuration it starts profile-service from source in its own process, sends
// the same burst of uploads at once (each from its own member, so the per-member rate limit is not
// what answers), samples the process's resident memory every 10 ms and reads its CPU time, then
// stops it. The first configuration is the baseline: image work unbounded and the old 50 MP
// ceiling. Then it times the offline photo classifier (issue 13) in this process: model load, and
// ms a photo. Loopback only, bounded, and it removes what it created. See tools/bench/README.md.
import { randomBytes, type randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import Redis from 'ioredis';
import sharp from 'sharp';
import { SessionStore } from '@mate/server-kit';
import { issueSession, runCommand, startServiceProcess, type ServiceProcess } from '@mate/server-kit/testing';
import { freePort } from '@mate/testing';
import { adminQuery, withDatabase } from '../lib/database';
import { benchUrls, cleanupOnSignal, deleteKeysAndDisconnect, noteLoad, resultFile } from '../lib/run';

const ROOT = path.resolve(__dirname, '../../..');
const MAIN = 'apps/profile-service/src/main.ts';
const RESULT_FILE = resultFile(path.join(ROOT, 'tools/bench/photos/last-result.json'));
const SAMPLE_MS = 10;
const MAX_PARALLEL = 24;
const JWT_SECRET = `bench-${randomBytes(16).toString('hex')}`;

interface Configuration {
  label: string;
  env: Record<string, string>;
  /** Side of the square one-colour PNG every upload of the burst sends. */
  side: number;
}

const CONFIGURATIONS: Configuration[] = [
  {
    label: 'unbounded, 50 MP ceiling (baseline)',
    env: { PHOTO_PROCESSING_CONCURRENCY: '64', PHOTO_PROCESSING_QUEUE: '64', PHOTO_MAX_INPUT_PIXELS: '50000000' },
    side: 7070,
  },
  {
    label: 'bounded to 2, 50 MP ceiling',
    env: { PHOTO_PROCESSING_CONCURRENCY: '2', PHOTO_PROCESSING_QUEUE: '8', PHOTO_MAX_INPUT_PIXELS: '50000000' },
    side: 7070,
  },
  { label: 'defaults (bounded to 2, 25 MP ceiling)', env: {}, side: 7070 },
  { label: 'defaults, 5000×5000 (at the ceiling)', env: {}, side: 5000 },
];

function parseArgs(argv: string[]): { parallel: number } {
  const opts = { parallel: 6 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    if (flag === '--parallel') opts.parallel = Number(inline ?? argv[++i]);
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write('Usage: node tools/bench/photos/run.cjs [--parallel <uploads at once>=6]\n');
      process.exit(0);
    } else throw new Error(`Unknown argument: ${argv[i]}`);
  }
  if (!Number.isInteger(opts.parallel) || opts.parallel < 1 || opts.parallel > MAX_PARALLEL) {
    throw new Error(`--parallel must be a whole number between 1 and ${MAX_PARALLEL}`);
  }
  return opts;
}

/** Resident memory of a process in MB, from /proc (Linux). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.split(/\s+/)[1]) / 1024);
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Result {
  label: string;
  image: string;
  statuses: Record<string, number>;
  idleRssMb: number;
  peakRssMb: number;
  cpuMsPerUpload: number;
  wallMs: number;
}

async function burst(service: ServiceProcess, tokens: string[], png: Buffer) {
  const statuses: Record<string, number> = {};
  await Promise.all(
    tokens.map(async (token) => {
      const form = new FormData();
      form.append('photo', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'bench.png');
      const res = await fetch(`${service.url}/api/photos/upload?context=onboarding`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }),
  );
  return statuses;
}

const CLASSIFIER_RUNS = 20;

interface ClassifierResult {
  loadMs: number;
  msPerPhoto: number;
  runs: number;
}

/**
 * The offline classifier every upload is scored by (issue 13), timed by profile-service itself in a
 * process of its own (`main.ts time-classifier`): how long the model takes to load once, and the
 * time per photo after (decode of a stored 600 px WebP to 224 × 224 RGB, and the inference on tfjs's
 * wasm backend). Its answer is the last line it printed, as JSON.
 */
async function classifierTiming(env: Record<string, string>): Promise<ClassifierResult> {
  const output = await runCommand(MAIN, 'time-classifier', env, [String(CLASSIFIER_RUNS)]);
  const line = output.trim().split('\n').reverse().find((l) => l.startsWith('{'));
  if (!line) throw new Error(`time-classifier printed no result:\n${output}`);
  return JSON.parse(line) as ClassifierResult;
}

async function main() {
  const { parallel } = parseArgs(process.argv.slice(2));
  const { databaseUrl, redisUrl } = benchUrls();

  const run = randomBytes(4).toString('hex');
  const prefix = `bench-uploads-${run}`;
  const database = `mate_bench_uploads_${run}`;
  const photoDir = path.join(os.tmpdir(), `mate-bench-uploads-${run}`);
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  let service: ServiceProcess | null = null;
  const cleanup = async () => {
    await service?.stop();
    service = null;
    await adminQuery(databaseUrl, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
    await deleteKeysAndDisconnect(redis, prefix);
    rmSync(photoDir, { recursive: true, force: true });
  };
  cleanupOnSignal(cleanup);

  try {
    noteLoad();
    await adminQuery(databaseUrl, `CREATE DATABASE "${database}"`);
    const env = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: withDatabase(databaseUrl, database),
      REDIS_URL: redisUrl,
      KEY_PREFIX: prefix,
      JWT_SECRET,
      INTERNAL_TOKEN: `bench-internal-${randomBytes(16).toString('hex')}`,
      PHOTO_STORAGE: 'local',
      PHOTO_DIR: photoDir,
    };
    await runCommand(MAIN, 'migrate', env);
    const db = new Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    const store = new SessionStore(redis, prefix);
    const images = new Map<number, Buffer>();

    const results: Result[] = [];
    for (const config of CONFIGURATIONS) {
      const png =
        images.get(config.side) ??
        (await sharp({ create: { width: config.side, height: config.side, channels: 3, background: { r: 200, g: 30, b: 90 } } })
          .png({ compressionLevel: 9 })
          .toBuffer());
      images.set(config.side, png);
      // New members for each burst (a profile each, as the seeder writes them) with live sessions.
      const { rows } = await db.query<{ user_id: string }>(
        `INSERT INTO profiles (user_id, name, age) SELECT gen_random_uuid(), 'Bench ' || n, 30 FROM generate_series(1, $1) n RETURNING user_id`,
        [parallel],
      );
      const tokens = await Promise.all(
        rows.map((r) => issueSession(store, JWT_SECRET, r.user_id as ReturnType<typeof randomUUID>).then((s) => s.token)),
      );

      process.stdout.write(`${config.label}: starting profile-service...\n`);
      const started = await startServiceProcess(MAIN, await freePort(), { ...env, ...config.env }, { health: '/health/ready' });
      service = started;
      const pid = started.pid;
      const idleRssMb = rssMb(pid);
      let peakRssMb = idleRssMb;
      const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, rssMb(pid))), SAMPLE_MS);
      const cpuBefore = cpuMs(pid);
      const t0 = performance.now();
      const statuses = await burst(started, tokens, png);
      const wallMs = Math.round(performance.now() - t0);
      clearInterval(sampler);
      peakRssMb = Math.max(peakRssMb, rssMb(pid));
      const cpuMsPerUpload = Math.round((cpuMs(pid) - cpuBefore) / parallel);
      await started.stop();
      service = null;
      const image = `${config.side}×${config.side} PNG, ${Math.round(png.length / 1024)} KB`;
      results.push({ label: config.label, image, statuses, idleRssMb, peakRssMb, cpuMsPerUpload, wallMs });
    }
    await db.end();

    const header = `| ${parallel} uploads at once | image | answers | RSS idle → peak | peak − idle | CPU ms / upload | wall ms |`;
    const lines = results.map(
      (r) =>
        `| ${r.label} | ${r.image} | ${Object.entries(r.statuses)
          .map(([status, n]) => `${n}× ${status}`)
          .join(', ')} | ${r.idleRssMb} → ${r.peakRssMb} MB | ${r.peakRssMb - r.idleRssMb} MB | ${r.cpuMsPerUpload} | ${r.wallMs} |`,
    );
    process.stdout.write(`\n${header}\n|---|---|---|---|---|---|---|\n${lines.join('\n')}\n`);
    const classifier = await classifierTiming(env);
    process.stdout.write(
      `\nclassifier (nsfwjs MobileNetV2, tfjs wasm): model loaded in ${classifier.loadMs} ms, ${classifier.msPerPhoto} ms a photo over ${classifier.runs}\n`,
    );
    writeFileSync(
      RESULT_FILE,
      `${JSON.stringify({ at: new Date().toISOString(), parallel, load: os.loadavg(), results, classifier }, null, 2)}\n`,
    );
  } finally {
    await cleanup();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench uploads failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
