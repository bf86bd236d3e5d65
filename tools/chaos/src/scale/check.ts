import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { DEPLOYED_SERVICES } from '@mate/contracts';
import { WORKSPACE } from '@mate/server-kit/testing';
import { formatResult, runChaos, type ChaosResult } from '../lib/chaos-run';
import type { FaultPlatform } from '../lib/platform';
import { startScaleTopology, type ScaleTopology } from './topology';

/**
 * `npm run scale:check`: the API journeys of apps/e2e against the scaled topology, then the chaos
 * population while it kills in turn a Redis master, the PostgreSQL replica, one replica of each
 * service and one gateway; then the chaos suite's invariants (no message lost or duplicated, every
 * match has its conversation, every event applied once in effect, no 5xx outside the kill windows)
 * and a table per fault with its recovery time. `short` (npm test): two journeys and four faults.
 */

export interface ScaleCheckOptions {
  short: boolean;
  log: (line: string) => void;
}

export interface ScaleCheckResult {
  journeysPassed: boolean;
  chaos: ChaosResult | null;
  ok: boolean;
  report: string;
}

/** Every fault of the full check, in order: the stores first, then a replica of each service, then a gateway. */
export const SCALE_FAULTS = ['redis-master', 'postgres-replica', ...DEPLOYED_SERVICES.map((s) => `${s.name}#1`), 'gateway#1'];
/** The short check's: each store, the message path's service and the front door. */
export const SHORT_SCALE_FAULTS = ['redis-master', 'postgres-replica', 'chat-service#1', 'gateway#1'];
/** The API journeys of the short check (apps/e2e/src/api: Jest path patterns). */
const SHORT_JOURNEYS = ['accounts', 'safety'];

interface Control {
  url: string;
  secret: string;
  close(): Promise<void>;
}
interface Transcriber {
  url: string;
  close(): Promise<void>;
}

const importEsm = (file: string) => import(path.join(WORKSPACE, file)) as Promise<Record<string, unknown>>;

/** The topology as the chaos run sees it; the check, not the run, stops it. */
function faultPlatformOf(t: ScaleTopology): FaultPlatform {
  return {
    id: t.id,
    keyPrefix: t.keyPrefix,
    jwtSecret: t.jwtSecret,
    gatewayUrl: t.gatewayUrl,
    redisEnv: t.redisEnv,
    databases: t.databases,
    photoDir: t.photoDir,
    kill: (target) => t.kill(target),
    start: (target) => t.start(target),
    allReady: () => t.allReady(),
    stop: async () => undefined,
  };
}

/** Runs Jest over apps/e2e's API journeys against the topology; resolves whether they passed. */
function runJourneys(t: ScaleTopology, env: Record<string, string>, patterns: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(path.join(WORKSPACE, 'node_modules/.bin/jest'), ['-c', 'apps/e2e/jest.config.cjs', '--ci', ...patterns], {
      cwd: WORKSPACE,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}

export async function runScaleCheck(options: ScaleCheckOptions): Promise<ScaleCheckResult> {
  const { log } = options;
  const id = randomBytes(3).toString('hex');
  const adminEmail = `admin-${id}@e2e.mate.test`;
  let transcriber: Transcriber | null = null;
  let control: Control | null = null;
  let topology: ScaleTopology | null = null;
  try {
    // The whole journeys need the transcriber stand-in (a call's subtitles) and the platform control
    // (a service stopped while a member is deleted); the short check's two need neither, and Jest
    // (CommonJS) cannot load those ES modules, so the short check starts them not.
    if (!options.short) {
      const { startTranscriberStandIn } = (await importEsm('tools/scripts/lib/transcriber-stand-in.mjs')) as {
        startTranscriberStandIn: () => Promise<Transcriber>;
      };
      transcriber = await startTranscriberStandIn();
    }
    topology = await startScaleTopology({
      keyPrefix: `scale-${id}`,
      extraEnv: {
        ADMIN_EMAILS: adminEmail,
        ...(transcriber ? { TRANSCRIBE_URL: transcriber.url } : {}),
        // One machine plays every member: the per-address limits as the e2e run raises them.
        IP_RATE_LIMIT_MULTIPLIER: '100',
      },
      log,
    });
    if (!options.short) {
      const { startPlatformControl } = (await importEsm('tools/scripts/lib/platform-control.mjs')) as {
        startPlatformControl: (p: { stopService(n: string): Promise<void>; startService(n: string): Promise<void> }) => Promise<Control>;
      };
      control = await startPlatformControl(topology);
    }
    const t = topology;
    log('API journeys (apps/e2e/src/api) through the load-balanced gateway...');
    const journeysPassed = await runJourneys(
      t,
      {
        ...(control ? { E2E_PLATFORM_CONTROL_URL: control.url, E2E_PLATFORM_CONTROL_SECRET: control.secret } : {}),
        E2E_DATABASES: JSON.stringify(
          Object.fromEntries(DEPLOYED_SERVICES.filter((s) => s.database).map((s) => [s.database as string, t.databases[s.name]])),
        ),
        // E2E_REDIS_CLUSTER_NODES and E2E_KEY_PREFIX: the journeys that reach Redis reach the cluster.
        ...Object.fromEntries(Object.entries(t.redisEnv).map(([k, v]) => [`E2E_${k}`, v])),
        E2E_PHOTO_DIR: t.photoDir,
        E2E_GATEWAY_URL: t.gatewayUrl,
        E2E_MAILDEV_URL: t.maildevUrl,
        E2E_ADMIN_EMAIL: adminEmail,
        ...(transcriber ? { E2E_TRANSCRIBER_URL: transcriber.url } : {}),
      },
      options.short ? SHORT_JOURNEYS : [],
    );
    log(`API journeys ${journeysPassed ? 'passed' : 'FAILED'}`);

    const faults = options.short ? SHORT_SCALE_FAULTS : SCALE_FAULTS;
    log(`chaos population while ${faults.join(', ')} are killed in turn...`);
    const chaos = await runChaos({
      members: options.short ? 8 : 16,
      faults,
      steadyMs: options.short ? 3_000 : 4_000,
      messageEveryMs: 1_000,
      callEveryMs: 6_000,
      readEveryMs: 1_000,
      log,
      platform: async () => faultPlatformOf(t),
    });
    const held = chaos.failuresOutside.length === 0 && chaos.checks.every((c) => c.problems.length === 0);
    const report = [
      `API journeys: ${journeysPassed ? 'passed' : 'FAILED'}`,
      '',
      formatResult(chaos),
      '',
      held && journeysPassed ? 'every fault recovered with every invariant held' : 'NOT every fault recovered with every invariant held',
    ].join('\n');
    return { journeysPassed, chaos, ok: held && journeysPassed, report };
  } finally {
    await control?.close();
    await topology?.stop();
    await transcriber?.close();
  }
}
