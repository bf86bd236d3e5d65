#!/usr/bin/env node
// CI stage (issue 14, docs/adr/0021): a service owner's view. One service's integration suites run
// on testcontainers (TESTCONTAINERS=on): PostgreSQL and Redis in containers of their own, started
// once for the run by libs/testing's Jest global setup, not the machine's servers. The stage then
// proves it: every suite reported containers as its source (TEST_INFRA_REPORT), the engine saw
// the containers (label dev.mate.test-infra.run), and none is left once Jest has ended.
//
//   node tools/scripts/testcontainers-stage.mjs [service]      (default notification-service)
//
// Images: TESTCONTAINERS_POSTGRES_IMAGE / TESTCONTAINERS_REDIS_IMAGE when set, else the ones
// docker/local-images/make.sh makes when present, else the public ones. No engine: prints
// "skipped: <reason>" and exits 0. Otherwise the exit code is Jest's (1 when the proof fails).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getContainerRuntimeClient, ImageName } from 'testcontainers';
import { ROOT, log } from './lib/platform.mjs';

const SERVICE = process.argv[2] ?? 'notification-service';
const RUN_LABEL = 'dev.mate.test-infra.run';
/** How long the global teardown (or the reaper, after a crash) may take to remove the containers. */
const CLEANUP_TIMEOUT_MS = 60_000;
const IMAGES = {
  postgres: {
    variable: 'TESTCONTAINERS_POSTGRES_IMAGE',
    local: 'mate-local/postgres:15',
    public: 'postgres:16-alpine',
  },
  redis: { variable: 'TESTCONTAINERS_REDIS_IMAGE', local: 'mate-local/redis:7', public: 'redis:7-alpine' },
};
const say = (msg) => log(`testcontainers: ${msg}`);

/** The engine's client; like libs/testing, retried on 127.0.0.1 for an engine without a bridge network. */
async function engine() {
  try {
    return await getContainerRuntimeClient();
  } catch (error) {
    if (process.env.TESTCONTAINERS_HOST_OVERRIDE !== undefined) throw error;
    process.env.TESTCONTAINERS_HOST_OVERRIDE = '127.0.0.1';
    try {
      return await getContainerRuntimeClient();
    } catch {
      delete process.env.TESTCONTAINERS_HOST_OVERRIDE;
      throw error;
    }
  }
}

/** The image to use: the one asked for, else mate-local's when made here, else the public one (pulled). */
async function image(client, { variable, local, public: fallback }) {
  const wanted =
    process.env[variable] || ((await client.image.exists(ImageName.fromString(local))) ? local : fallback);
  const name = ImageName.fromString(wanted);
  if (!(await client.image.exists(name))) {
    try {
      await client.image.pull(name);
    } catch (error) {
      throw new Error(
        `image ${wanted} is not here and cannot be pulled (${error.message}); docker/local-images/make.sh makes ${local}`,
      );
    }
  }
  return wanted;
}

async function runContainers(client, run) {
  return client.container.dockerode.listContainers({
    all: true,
    filters: { label: [`${RUN_LABEL}=${run}`] },
  });
}

/** Resolves with the run's containers still present once none is left or the timeout has passed. */
async function awaitCleanup(client, run) {
  const deadline = Date.now() + CLEANUP_TIMEOUT_MS;
  for (;;) {
    const left = await runContainers(client, run);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function runJest(args, env) {
  return new Promise((resolve) => {
    const child = spawn(path.join(ROOT, 'node_modules/.bin/jest'), args, {
      cwd: ROOT,
      stdio: 'inherit',
      env,
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const jestConfig = path.join(ROOT, 'apps', SERVICE, 'jest.config.cjs');
if (!existsSync(jestConfig)) {
  say(`FAILED: ${SERVICE} has no ${path.relative(ROOT, jestConfig)}`);
  process.exit(1);
}

let client;
try {
  client = await engine();
} catch (error) {
  say(`skipped: no container engine answers (${error.message})`);
  process.exit(0);
}

let images;
try {
  images = { postgres: await image(client, IMAGES.postgres), redis: await image(client, IMAGES.redis) };
} catch (error) {
  say(`FAILED: ${error.message}`);
  process.exit(1);
}

const run = `stage-${Date.now()}`;
const work = mkdtempSync(path.join(tmpdir(), 'mate-testcontainers-stage-'));
const reportFile = path.join(work, 'infra.jsonl');
const resultsFile = path.join(work, 'jest.json');
say(`${SERVICE}'s integration suites on ${images.postgres} and ${images.redis}`);
const started = Date.now();
const code = await runJest(
  [
    '-c',
    jestConfig,
    'integration-spec',
    '--ci',
    '--globalSetup',
    path.join(ROOT, 'libs/testing/src/jest-global-setup.ts'),
    '--globalTeardown',
    path.join(ROOT, 'libs/testing/src/jest-global-teardown.ts'),
    '--json',
    '--outputFile',
    resultsFile,
  ],
  {
    ...process.env,
    TESTCONTAINERS: 'on',
    TESTCONTAINERS_POSTGRES_IMAGE: images.postgres,
    TESTCONTAINERS_REDIS_IMAGE: images.redis,
    TEST_INFRA_RUN: run,
    TEST_INFRA_REPORT: reportFile,
  },
);
const seconds = Math.round((Date.now() - started) / 1000);

const problems = [];
const results = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : null;
if (!results) problems.push('Jest wrote no results');
const reports = existsSync(reportFile)
  ? readFileSync(reportFile, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
const suiteReports = reports.filter((r) => r.scope !== 'run');
const local = suiteReports.filter((r) => r.source !== 'testcontainers');
const containers = new Set(reports.flatMap((r) => r.containers ?? []));
if (suiteReports.length === 0) problems.push('no suite reported its test infrastructure');
if (local.length > 0) problems.push(`${local.length} suite(s) ran on the local servers, not on containers`);
if (containers.size < 2)
  problems.push(`expected PostgreSQL and Redis containers, the suites used ${containers.size}`);
const left = await awaitCleanup(client, run);
if (left.length > 0) {
  problems.push(
    `${left.length} container(s) left after the run: ${left.map((c) => c.Id.slice(0, 12)).join(', ')} (removed now)`,
  );
  await Promise.all(
    left.map((c) =>
      client.container
        .getById(c.Id)
        .remove({ force: true, v: true })
        .catch(() => undefined),
    ),
  );
}
rmSync(work, { recursive: true, force: true });

const suites = results ? `${results.numPassedTestSuites}/${results.numTotalTestSuites} suites` : '? suites';
const tests = results ? `${results.numPassedTests}/${results.numTotalTests} tests` : '? tests';
const network = reports.find((r) => r.networkMode)?.networkMode ?? '?';
say(
  `${SERVICE}: ${suites}, ${tests} passed, ${seconds} s, ${containers.size} containers (${network} network; ` +
    `${suiteReports.length - local.length} test files on them, ${local.length} on the local servers)`,
);
for (const problem of problems) say(`FAILED: ${problem}`);
process.exit(code !== 0 ? code : problems.length > 0 ? 1 : 0);
