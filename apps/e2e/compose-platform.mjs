// The e2e runner's platform in containers (`node apps/e2e/run.mjs --compose`): docker/compose.yml
// with docker/compose.host.yml, from images built beforehand (tools/scripts/containers.mjs build),
// under a project name of its own, with its own secrets, its own PostgreSQL and Redis containers on
// ports beside the host's, and a photo folder on the host that the journeys can inspect. Stopping
// and starting a service (the member-data journey) is `docker-compose stop|start <service>`.
//
// Compose v1 (Debian's docker-compose 1.29) refuses published ports on the host network, and an
// override cannot remove compose.yml's `ports:` in v1; so the two files are merged once
// (`docker-compose config`), the ports of host-network services dropped, and that one file (mode
// 0600: it holds this run's secrets; removed at the end) is what every later command reads.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { movePorts, portMoves } from '../../tools/scripts/lib/compose-ports.mjs';
import { ROOT, SERVICES, log, portOpen, waitForHttp } from '../../tools/scripts/lib/platform.mjs';

const yaml = createRequire(import.meta.url)('js-yaml');
/** The servers the apps really wait for (their checks are cheap: pg_isready, redis-cli). */
const INFRASTRUCTURE = ['postgres', 'redis'];
/** The host ports the containers listen on (host networking), by what listens there. */
const hostPorts = (ports) => ({
  postgres: ports.postgres,
  redis: ports.redis,
  'maildev SMTP': ports.smtp,
  'maildev web': ports.maildevWeb,
  gateway: ports.gateway,
  web: ports.web,
  'admin web': ports.adminWeb,
  ...Object.fromEntries(SERVICES.map((s) => [s.name, ports.services[s.name]])),
});

const SOURCE_FILES = ['-f', path.join(ROOT, 'docker/compose.yml'), '-f', path.join(ROOT, 'docker/compose.host.yml')];

/** docker-compose (v1, Debian's) where installed, else `docker compose` (v2). */
function composeCommand() {
  const v1 = spawnSync('docker-compose', ['version'], { stdio: 'ignore' });
  return v1.status === 0 ? ['docker-compose'] : ['docker', 'compose'];
}

/**
 * Starts the whole platform in containers and resolves once the gateway, the web app and the admin
 * app answer. `settings` are compose's variables (secrets, ports, images, TRANSCRIBE_URL, ...).
 */
export async function startComposePlatform({ project, settings, photoDir, logDir, ports }) {
  const [command, ...prefix] = composeCommand();
  const env = { ...process.env, ...settings, UPLOADS_DIR: photoDir };
  let files = SOURCE_FILES;
  const compose = (args, options = {}) => {
    const result = spawnSync(command, [...prefix, '-p', project, ...files, ...args], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      ...options,
    });
    if (result.status !== 0) {
      throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}): ${(result.stderr ?? '').slice(-2000)}`);
    }
    return result.stdout ?? '';
  };
  // The app containers run as uid 1000: the photo folder must be theirs.
  mkdirSync(photoDir, { recursive: true });
  chownSync(photoDir, 1000, 1000);
  mkdirSync(logDir, { recursive: true });

  const merged = yaml.load(compose(['config']));
  movePorts(merged, portMoves(merged, ports));
  for (const service of Object.values(merged.services)) {
    if (service.network_mode === 'host') delete service.ports;
    // An app that waits on another app's health check waits for its first check (every 10 s):
    // the gateway a minute after the services. Here the apps start as soon as the migrations are
    // done and PostgreSQL and Redis are healthy, and this runner waits for every app's readiness
    // over HTTP itself. (Checking every 2 s instead cost a core of this 2-core machine: each check
    // is a process started in a container, and the journeys then timed out.)
    for (const [name, dependency] of Object.entries(service.depends_on ?? {})) {
      if (dependency.condition === 'service_healthy' && !INFRASTRUCTURE.includes(name)) dependency.condition = 'service_started';
    }
  }
  const mergedFile = path.join(logDir, `compose.${project}.yml`);
  writeFileSync(mergedFile, yaml.dump(merged, { lineWidth: -1 }), { mode: 0o600 });
  files = ['-f', mergedFile];

  const started = Date.now();
  let logs = null;
  const out = createWriteStream(path.join(logDir, 'compose.log'));
  const down = () => {
    try {
      compose(['down', '-v', '--remove-orphans', '-t', '20']);
    } catch (e) {
      // Whatever compose could not take down: the project's containers and volumes by its label.
      const label = `label=com.docker.compose.project=${project}`;
      const ids = (kind) =>
        spawnSync('docker', [kind, 'ls', '-aq', '--filter', label].filter((a) => kind !== 'volume' || a !== '-a'), {
          encoding: 'utf8',
        }).stdout.split('\n').filter(Boolean);
      const containers = ids('container');
      if (containers.length) spawnSync('docker', ['rm', '-f', ...containers], { stdio: 'ignore' });
      const volumes = ids('volume');
      if (volumes.length) spawnSync('docker', ['volume', 'rm', ...volumes], { stdio: 'ignore' });
      throw e;
    } finally {
      logs?.kill('SIGTERM');
      rmSync(mergedFile, { force: true });
    }
  };
  try {
    // Every container shares the host's network: a port something else holds would leave its
    // server unable to listen, and compose would only say the container is unhealthy.
    const taken = [];
    for (const [name, port] of Object.entries(hostPorts(ports))) if (await portOpen(port)) taken.push(`${name} ${port}`);
    if (taken.length) throw new Error(`ports the containers need are in use on this machine: ${taken.join(', ')}`);
    // `up` returns once every container is started, each after its dependencies were healthy (or,
    // for the migrations, exited 0): compose's depends_on conditions order the start.
    try {
      compose(['up', '-d', '--no-build'], { stdio: ['ignore', 'inherit', 'inherit'] });
    } catch (e) {
      // What the run's output shows of the failure: each container's state and the servers' last words.
      for (const args of [['ps'], ['logs', '--no-color', '--tail', '25', ...INFRASTRUCTURE, 'maildev']]) {
        process.stderr.write(spawnSync(command, [...prefix, '-p', project, ...files, ...args], { cwd: ROOT, env, encoding: 'utf8' }).stdout ?? '');
      }
      throw e;
    }
    // Everything the containers print, for a failed run (dist/e2e/logs/compose.log).
    logs = spawn(command, [...prefix, '-p', project, ...files, 'logs', '--no-color', '-f'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    logs.stdout.pipe(out, { end: false });
    logs.stderr.pipe(out, { end: false });
    await Promise.all([
      ...SERVICES.map((s) => waitForHttp(`http://127.0.0.1:${ports.services[s.name]}/health/ready`, { timeoutMs: 180_000 })),
      waitForHttp(`http://127.0.0.1:${ports.gateway}/health/ready`, { timeoutMs: 180_000 }),
      waitForHttp(`http://127.0.0.1:${ports.web}/health`, { timeoutMs: 180_000 }),
      waitForHttp(`http://127.0.0.1:${ports.adminWeb}/health`, { timeoutMs: 180_000 }),
      waitForHttp(`http://127.0.0.1:${ports.maildevWeb}/healthz`, { timeoutMs: 180_000 }),
    ]);
  } catch (e) {
    down();
    out.end();
    throw e;
  }
  log(`e2e: the platform is up in containers (${Math.round((Date.now() - started) / 1000)} s)`);

  const servicePort = (name) => {
    if (!SERVICES.some((s) => s.name === name)) throw new Error(`${name} is not a service of the platform`);
    return ports.services[name];
  };
  return {
    async stopService(name) {
      servicePort(name);
      compose(['stop', '-t', '20', name]);
    },
    async startService(name) {
      const port = servicePort(name);
      compose(['start', name]);
      await waitForHttp(`http://127.0.0.1:${port}/health/ready`, { timeoutMs: 90_000 });
    },
    async stop() {
      try {
        down();
      } finally {
        await new Promise((resolve) => out.end(resolve));
      }
    },
  };
}
