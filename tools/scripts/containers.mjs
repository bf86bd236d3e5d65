#!/usr/bin/env node
// Mate in containers (ADR 0022):
//
//   node tools/scripts/containers.mjs prepare [--write-env F]
//        engine → base images → every app's image → sizes and checks → one service's integration
//        tests on testcontainers; F receives the images' variables (MATE_TAG, POSTGRES_IMAGE, ...)
//        for `E2E_PLATFORM=containers npm test`, whose journeys then run against docker compose.
//        Exit 0: ready; 3: no container engine can be started here (it says why); 1: a failure.
//   node tools/scripts/containers.mjs ci [journey args]
//        prepare, then the e2e journeys against compose (apps/e2e/run.mjs --compose [args]).
//   node tools/scripts/containers.mjs engine   start dockerd when none answers (root, no bridge)
//   node tools/scripts/containers.mjs build    base images and every app's image, then their sizes
//
// `.ci/run` runs `prepare` and then `npm test` with E2E_PLATFORM=containers, so CI's journeys run
// against the images; where no engine can be started they run against processes, as on a laptop.
// The engine runs with --bridge=none --iptables=false: every container uses the host's network
// (docker/compose.host.yml), so all traffic stays on 127.0.0.1.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, SERVICES, log } from './lib/platform.mjs';

const REGISTRY = process.env.MATE_REGISTRY ?? 'mate';
const TAG = process.env.MATE_TAG ?? 'ci';
/** Every app that becomes an image, with the port compose gives it and its Dockerfile target. */
const APPS = [
  ...SERVICES.map((s) => ({ name: s.name, port: s.port, target: 'service' })),
  { name: 'gateway', port: 3000, target: 'service' },
  { name: 'web', port: 4200, target: 'web' },
  { name: 'admin-web', port: 4300, target: 'web' },
];

/** A client that builds with BuildKit: Debian's 20.10 one where a newer client lacks buildx. */
function dockerClient() {
  if (process.env.DOCKER) return process.env.DOCKER;
  const buildx = spawnSync('docker', ['buildx', 'version'], { stdio: 'ignore' });
  if (buildx.status !== 0 && existsSync('/usr/bin/docker')) return '/usr/bin/docker';
  return 'docker';
}
const docker = dockerClient();

const engineAnswers = () => spawnSync(docker, ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0;

/** Resolves with null when an engine answers (started here if need be), else with the reason. */
async function ensureEngine() {
  if (engineAnswers()) return null;
  const dockerd = ['/usr/sbin/dockerd', '/usr/bin/dockerd'].find((p) => existsSync(p));
  if (!dockerd) return 'no container engine answers and dockerd is not installed (apt-get install -y docker.io)';
  if (process.getuid?.() !== 0) return 'no container engine answers and starting dockerd needs root';
  const logFile = '/tmp/mate-dockerd.log';
  log(`containers: starting dockerd (no bridge, no iptables; its log: ${logFile})`);
  const child = spawn(dockerd, ['--bridge=none', '--iptables=false', '--ip6tables=false'], {
    detached: true,
    stdio: ['ignore', openSync(logFile, 'a'), openSync(logFile, 'a')],
  });
  child.unref();
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return `dockerd exited with ${child.exitCode} (see ${logFile})`;
    if (engineAnswers()) return null;
    await new Promise((r) => setTimeout(r, 500));
  }
  return `dockerd did not answer within 60 s (see ${logFile})`;
}

/** docker/local-images/make.sh: the base images (pulled, present or made here); returns their names. */
function baseImages() {
  const result = spawnSync('bash', [path.join(ROOT, 'docker/local-images/make.sh')], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DOCKER: docker },
  });
  if (result.status !== 0) throw new Error('docker/local-images/make.sh failed');
  return Object.fromEntries(
    result.stdout
      .split('\n')
      .map((line) => /^([A-Z_]+)=(\S+)$/.exec(line.trim()))
      .filter(Boolean)
      .map((m) => [m[1], m[2]]),
  );
}

const CA_BUNDLE = process.env.CA_BUNDLE ?? process.env.NODE_EXTRA_CA_CERTS ?? '/etc/ssl/certs/ca-certificates.crt';

/** Builds one app's image; returns its size in bytes and the seconds it took. */
function buildImage(app, images) {
  const started = Date.now();
  const image = `${REGISTRY}/${app.name}:${TAG}`;
  const args = [
    'build',
    '--network',
    'host',
    '-f',
    'docker/Dockerfile',
    '--target',
    app.target,
    '--build-arg',
    `APP=${app.name}`,
    '--build-arg',
    `PORT=${app.port}`,
    '--build-arg',
    `NODE_IMAGE=${images.NODE_IMAGE}`,
    // One compile of every app, the same stage for all eleven images (docker/Dockerfile).
    '--build-arg',
    'BUILD_STAGE=build-all',
    ...(existsSync(CA_BUNDLE) ? ['--secret', `id=ca,src=${CA_BUNDLE}`] : []),
    '-t',
    image,
    '.',
  ];
  const result = spawnSync(docker, args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, DOCKER_BUILDKIT: '1', BUILDKIT_PROGRESS: 'plain' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    process.stdout.write(`${result.stdout}\n${result.stderr}`.split('\n').slice(-80).join('\n'));
    throw new Error(`the image of ${app.name} did not build`);
  }
  const size = Number(spawnSync(docker, ['image', 'inspect', '-f', '{{.Size}}', image], { encoding: 'utf8' }).stdout.trim());
  const user = spawnSync(docker, ['image', 'inspect', '-f', '{{.Config.User}}', image], { encoding: 'utf8' }).stdout.trim();
  const health = spawnSync(docker, ['image', 'inspect', '-f', '{{json .Config.Healthcheck.Test}}', image], { encoding: 'utf8' }).stdout.trim();
  return { image, size, user, health, seconds: (Date.now() - started) / 1000 };
}

function buildAll(images) {
  const rows = [];
  for (const app of APPS) {
    log(`containers: building ${REGISTRY}/${app.name}:${TAG}`);
    rows.push({ app: app.name, ...buildImage(app, images) });
  }
  const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;
  log('containers: images');
  console.table(
    rows.map((r) => ({ app: r.app, image: r.image, size: mb(r.size), user: r.user, 'build s': r.seconds.toFixed(1) })),
  );
  // What every image must be: non-root and with a health check.
  const wrong = rows.filter((r) => !/^[1-9]\d*(:\d+)?$/.test(r.user) || !r.health.includes('healthcheck.cjs'));
  if (wrong.length) throw new Error(`images run as root or without a health check: ${wrong.map((r) => r.app).join(', ')}`);
  return rows;
}

function runNode(script, args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, script), ...args], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

/** The exit status of `prepare` where no engine can be started: only the container stage is skipped. */
const NO_ENGINE = 3;

const [command = 'ci', ...rest] = process.argv.slice(2);
const started = Date.now();
try {
  if (!['ci', 'prepare', 'engine', 'build'].includes(command)) throw new Error(`unknown command ${command} (prepare, ci, engine, build)`);
  const reason = await ensureEngine();
  if (reason) {
    log(`containers: skipped: ${reason}`);
    process.exit(NO_ENGINE);
  }
  if (command === 'engine') process.exit(0);
  const images = baseImages();
  buildAll(images);
  if (command === 'build') process.exit(0);

  const imageEnv = {
    DOCKER: docker,
    MATE_REGISTRY: REGISTRY,
    MATE_TAG: TAG,
    POSTGRES_IMAGE: images.POSTGRES_IMAGE,
    REDIS_IMAGE: images.REDIS_IMAGE,
    MAILDEV_IMAGE: images.MAILDEV_IMAGE,
    TESTCONTAINERS_POSTGRES_IMAGE: images.POSTGRES_IMAGE,
    TESTCONTAINERS_REDIS_IMAGE: images.REDIS_IMAGE,
  };
  log("containers: a service's integration tests on testcontainers");
  let failures = (await runNode('tools/scripts/testcontainers-stage.mjs', [], imageEnv)) === 0 ? 0 : 1;
  if (command === 'prepare') {
    // Not --env-file: Node 20 takes that for its own option wherever it stands.
    const envFile = rest[0] === '--write-env' ? rest[1] : null;
    if (envFile) {
      writeFileSync(envFile, `${Object.entries(imageEnv).map(([k, v]) => `${k}=${v}`).join('\n')}\n`);
      log(`containers: the images' variables are in ${envFile}`);
    }
  } else {
    log('containers: the e2e journeys against docker compose');
    if ((await runNode('apps/e2e/run.mjs', ['--compose', ...rest], imageEnv)) !== 0) failures++;
  }
  log(`containers: ${command} ${failures ? 'FAILED' : 'passed'} (${Math.round((Date.now() - started) / 1000)} s)`);
  process.exit(failures ? 1 : 0);
} catch (e) {
  log(`containers: FAILED: ${e.message}`);
  process.exit(1);
}
