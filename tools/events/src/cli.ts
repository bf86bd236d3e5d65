import { Queue } from 'bullmq';
import { Client } from 'pg';
import { EVENT_CATALOGUE, eventQueueName, eventsConsumedBy, queuePrefix, type EventName, type ServiceName } from '@mate/contracts';
import {
  consumerStatus,
  createRedisConnection,
  eventConsumers,
  isRedisCluster,
  outboxStatus,
  redriveFailed,
  replayOutbox,
  sqlOfPg,
  summarise,
  type ConsumerStatus,
  type EventStatusReport,
  type OutboxStatus,
  type RedisClient,
  withTimeout,
} from '@mate/server-kit';
import { resolveDeployment, type Deployment } from './deployment';

export const USAGE = `Usage: npm run events -- <command> [options]

Commands
  status                      per consumer: waiting, active, delayed and failed jobs, workers and lag;
                              per producer database: unpublished outbox rows and the oldest one's age
  redrive <consumer>          re-runs the consumer's failed (exhausted) jobs
  replay <consumer>           re-sends every stored outbox event routed to the consumer, oldest first

Options
  --json                      machine-readable output
  --since <date>              replay: only events stored from this instant (ISO 8601, e.g. 2026-11-20T00:00Z)
  --wait <seconds>            status: poll until everything is caught up (exit 1 if it is not by then)
  --database <service>=<url>  a producer database (repeatable; default mate_<db> on DATABASE_URL for
                              every deployed service of the service registry)
  --redis-url <url>           default REDIS_URL, else redis://127.0.0.1:6379
  --prefix <prefix>           the deployment's KEY_PREFIX, default mate
`;

/** Bad command line: usage printed, exit status 2. */
export class UsageError extends Error {}

interface Options {
  command: string;
  consumer?: ServiceName;
  json: boolean;
  since?: Date;
  waitSeconds?: number;
  databases: Map<string, string>;
  redisUrl?: string;
  keyPrefix?: string;
}

const REDIS_TIMEOUT_MS = 10_000;
const WAIT_POLL_MS = 500;

function parse(argv: string[]): Options {
  const options: Options = { command: '', json: false, databases: new Map() };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    if (arg === '--json') options.json = true;
    else if (arg === '--since') {
      const text = value();
      const since = new Date(text);
      if (Number.isNaN(since.getTime())) throw new UsageError(`--since: "${text}" is not a date (use ISO 8601)`);
      options.since = since;
    } else if (arg === '--wait') {
      const seconds = Number(value());
      if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError('--wait needs a number of seconds above 0');
      options.waitSeconds = seconds;
    } else if (arg === '--database') {
      const [service, ...url] = value().split('=');
      if (!service || url.length === 0) throw new UsageError('--database needs <service>=<url>');
      options.databases.set(service, url.join('='));
    } else if (arg === '--redis-url') options.redisUrl = value();
    else if (arg === '--prefix') options.keyPrefix = value();
    else if (arg === '--help' || arg === '-h') options.command = 'help';
    else if (arg.startsWith('--')) throw new UsageError(`Unknown option ${arg}`);
    else positional.push(arg);
  }
  if (options.command === 'help') return options;
  const [command, consumer, ...extra] = positional;
  if (!command) throw new UsageError('Name a command: status, redrive or replay');
  if (!['status', 'redrive', 'replay'].includes(command)) throw new UsageError(`Unknown command "${command}"`);
  options.command = command;
  if (command === 'status') {
    if (consumer) throw new UsageError('status takes no consumer');
  } else {
    if (!consumer) throw new UsageError(`${command} needs a consumer: ${eventConsumers().join(', ')}`);
    if (!eventConsumers().includes(consumer as ServiceName)) {
      throw new UsageError(`"${consumer}" consumes no event. Consumers: ${eventConsumers().join(', ')}`);
    }
    options.consumer = consumer as ServiceName;
  }
  if (extra.length) throw new UsageError(`Unexpected argument "${extra[0]}"`);
  if (options.since && command !== 'replay') throw new UsageError('--since is an option of replay');
  if (options.waitSeconds && command !== 'status') throw new UsageError('--wait is an option of status');
  return options;
}

/** A Redis connection (a cluster's with REDIS_CLUSTER_NODES) that gives up instead of waiting forever (BullMQ workers' settings would). */
function connect(dep: Deployment): RedisClient {
  return createRedisConnection(dep, 'command', { maxRetriesPerRequest: 1, connectTimeout: 3000 });
}

/** `events.<consumer>`; a Redis failure surfaces as the command's one error line, not a console dump. */
function openQueue(consumer: ServiceName, redis: RedisClient, dep: Deployment): Queue {
  const name = eventQueueName(consumer);
  // The services' prefix for this queue: a hash tag per queue on a cluster (ADR 0032).
  const queue = new Queue(name, { connection: redis, prefix: queuePrefix(dep.keyPrefix, name, isRedisCluster(dep)) });
  queue.on('error', () => undefined);
  return queue;
}

function bounded<T>(what: string, work: Promise<T>): Promise<T> {
  return withTimeout(work, REDIS_TIMEOUT_MS, `${what} did not answer within ${REDIS_TIMEOUT_MS / 1000} s`);
}

/** Opens a `pg` client per producer database for the duration of `work`. */
async function withOutboxes<T>(
  dep: Deployment,
  work: (outboxes: { service: ServiceName; client: Client | null; error?: string }[]) => Promise<T>,
): Promise<T> {
  const opened = await Promise.all(
    dep.databases.map(async ({ service, url }) => {
      const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
      try {
        await client.connect();
        return { service, client };
      } catch (e) {
        await client.end().catch(() => undefined);
        const database = new URL(url).pathname.slice(1);
        return { service, client: null, error: `database ${database}: ${(e as Error).message}` };
      }
    }),
  );
  try {
    return await work(opened);
  } finally {
    await Promise.all(opened.map((o) => o.client?.end().catch(() => undefined)));
  }
}

export interface StatusReport extends EventStatusReport {
  /** Producer databases that could not be read; the report is not caught up while any is listed. */
  errors: { service: ServiceName; error: string }[];
}

async function readStatus(dep: Deployment, redis: RedisClient): Promise<StatusReport> {
  return withOutboxes(dep, async (dbs) => {
    const now = Date.now();
    const consumers = await bounded(
      `Redis at ${dep.redisUrl}`,
      Promise.all(
        eventConsumers().map(async (consumer) => {
          const queue = openQueue(consumer, redis, dep);
          try {
            return await consumerStatus(consumer, queue, { deployed: dep.deployed.includes(consumer), now });
          } finally {
            await queue.close();
          }
        }),
      ),
    );
    const outboxes: OutboxStatus[] = [];
    const errors: StatusReport['errors'] = [];
    for (const db of dbs) {
      if (!db.client) {
        errors.push({ service: db.service, error: db.error ?? 'unreachable' });
        continue;
      }
      try {
        outboxes.push(await outboxStatus(db.service, sqlOfPg(db.client), now));
      } catch (e) {
        errors.push({ service: db.service, error: (e as Error).message });
      }
    }
    const report = summarise(consumers, outboxes, now);
    return { ...report, errors, caughtUp: report.caughtUp && errors.length === 0 };
  });
}

function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 || i === 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

export function formatStatus(report: StatusReport): string {
  const consumerRows = report.consumers.map((c: ConsumerStatus) => [
    c.consumer,
    c.state,
    String(c.waiting),
    String(c.active),
    String(c.delayed),
    String(c.failed),
    String(c.workers),
    c.oldestWaitingAt ? duration(c.lagMs) : '-',
  ]);
  const outboxRows = report.outboxes.map((o) => [
    o.service,
    o.unpublished === 0 ? 'relayed' : 'behind',
    String(o.unpublished),
    o.oldestUnpublishedAt ?? '-',
    o.oldestUnpublishedAt ? duration(o.lagMs) : '-',
  ]);
  const parts = [
    `Event consumers (queues events.<consumer>) at ${report.at}`,
    table(['consumer', 'state', 'waiting', 'active', 'delayed', 'failed', 'workers', 'lag'], consumerRows),
    '',
    'Producer outboxes',
    table(['producer', 'state', 'unpublished', 'oldest unpublished', 'lag'], outboxRows),
  ];
  for (const e of report.errors) parts.push(`  ${e.service}: ${e.error}`);
  const notDeployed = report.consumers.filter((c) => c.state === 'not-deployed').map((c) => c.consumer);
  if (notDeployed.length) {
    parts.push('', `Not deployed yet (fill them with replay or the producers' republish once they run): ${notDeployed.join(', ')}`);
  }
  parts.push('', report.caughtUp ? 'Every consumer is caught up.' : 'Not caught up yet.');
  return `${parts.join('\n')}\n`;
}

export interface CliIo {
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Runs one command; answers the exit status (0 done, 1 failed or not caught up by --wait, 2 usage). */
export async function runEventsCli(argv: string[], io: CliIo): Promise<number> {
  let options: Options;
  try {
    options = parse(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`${e.message}\n\n${USAGE}`);
    return 2;
  }
  if (options.command === 'help') {
    io.out(USAGE);
    return 0;
  }
  const dep = resolveDeployment(io.env, options);
  const redis = connect(dep);
  redis.on('error', () => undefined); // reported by the command that fails
  try {
    if (options.command === 'status') return await status(dep, redis, options, io);
    const consumer = options.consumer as ServiceName;
    const queue = openQueue(consumer, redis, dep);
    try {
      if (options.command === 'redrive') {
        const n = await bounded(`Redis at ${dep.redisUrl}`, redriveFailed(queue));
        io.out(options.json ? `${JSON.stringify({ consumer, redriven: n })}\n` : `${consumer}: ${n} failed job(s) sent back to waiting\n`);
        return 0;
      }
      return await replay(dep, consumer, queue, options, io);
    } finally {
      await queue.close();
    }
  } catch (e) {
    io.err(`events ${options.command} failed: ${(e as Error).message}\n`);
    return 1;
  } finally {
    redis.disconnect();
  }
}

async function status(dep: Deployment, redis: RedisClient, options: Options, io: CliIo): Promise<number> {
  const deadline = Date.now() + (options.waitSeconds ?? 0) * 1000;
  let report = await readStatus(dep, redis);
  while (!report.caughtUp && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
    report = await readStatus(dep, redis);
  }
  io.out(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatStatus(report));
  return options.waitSeconds && !report.caughtUp ? 1 : 0;
}

async function replay(dep: Deployment, consumer: ServiceName, queue: Queue, options: Options, io: CliIo): Promise<number> {
  const names = eventsConsumedBy(consumer);
  if (names.length === 0) {
    const planned = (Object.keys(EVENT_CATALOGUE) as EventName[]).filter((n) => EVENT_CATALOGUE[n].later.includes(consumer));
    io.err(
      `${consumer} is not routed any event yet (the catalogue lists it under "later" for ${planned.join(', ')}); ` +
        'move it to "consumers" when it is deployed, then replay.\n',
    );
    return 1;
  }
  return withOutboxes(dep, async (dbs) => {
    const unreachable = dbs.filter((d) => !d.client);
    if (unreachable.length) {
      for (const d of unreachable) io.err(`${d.service}: ${d.error}\n`);
      return 1;
    }
    const sent = await replayOutbox({
      consumer,
      queue,
      outboxes: dbs.map((d) => sqlOfPg(d.client as Client)),
      since: options.since,
    });
    io.out(
      options.json
        ? `${JSON.stringify({ consumer, replayed: sent, since: options.since?.toISOString() ?? null })}\n`
        : `${consumer}: ${sent} event(s) (${names.join(', ')}) re-sent to ${eventQueueName(consumer)}` +
            `${options.since ? ` from ${options.since.toISOString()}` : ''}\n`,
    );
    return 0;
  });
}
