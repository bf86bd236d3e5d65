// The clients of bench:chat: one socket.io-client socket per member, messages offered at a fixed
// rate (open loop: sends follow the clock, not the answers), and what each message did: its
// acknowledgement and its arrival at the recipient's socket (end-to-end latency, same clock).
import { performance } from 'node:perf_hooks';
import { io as connect, type Socket } from 'socket.io-client';

/** One member of the bench: their id and the handshake `auth` of their socket. */
export interface BenchMember {
  id: string;
  auth: Record<string, string>;
}

/** A message in flight: when it was sent, acknowledged (or refused) and delivered. */
interface Tracked {
  sentAt: number;
  ackedAt?: number;
  error?: string;
  deliveredAt?: number;
}

export interface PhaseResult {
  label: string;
  offeredPerSecond: number;
  seconds: number;
  sent: number;
  acked: number;
  delivered: number;
  /** Acknowledged without error but never delivered (after the drain). */
  lost: number;
  errors: number;
  /** The first refusal of each kind, with how many. */
  errorKinds: Record<string, number>;
  /** Deliveries and acknowledgements per second within the phase's window. */
  deliveredPerSecond: number;
  ackedPerSecond: number;
  /** End-to-end: send → the recipient's `new_message`. */
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Send → acknowledgement. */
  ackP50: number;
  ackP99: number;
  /** CPU of this (client) process over the phase, in % of one core. */
  clientCpuPercent: number;
  /** CPU milliseconds per delivered message of each server process the probe names (Linux /proc). */
  serverCpuMsPerMessage: Record<string, number>;
}

/** CPU time so far (ms) of named processes, e.g. from /proc (see processCpuMs in ../lib/run). */
export type CpuProbe = () => Promise<Record<string, number>>;

const ACK_TIMEOUT_MS = 15_000;
const CONNECT_CONCURRENCY = 50;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const round = (n: number) => Math.round(n * 10) / 10;

/** A text of 20–140 characters, like a chat line (never logged by the services, so its words do not matter). */
function content(n: number): string {
  const words = [
    'sounds',
    'good',
    'see',
    'you',
    'at',
    'eight',
    'the',
    'place',
    'near',
    'park',
    'coffee',
    'tomorrow',
    'haha',
    'yes',
  ];
  const length = 4 + (n % 20);
  return Array.from({ length }, (_, i) => words[(n * 7 + i * 3) % words.length]).join(' ');
}

/**
 * The members' sockets against one server (the gateway or the relay) and the messages they send
 * each other: member 2k and 2k+1 are a pair (a conversation).
 */
export class Fleet {
  private readonly sockets: Socket[] = [];
  private readonly tracked = new Map<string, Tracked>();
  private sequence = 0;

  constructor(
    private readonly url: string,
    private readonly members: BenchMember[],
    private readonly tag: string,
    private readonly probe: CpuProbe = async () => ({}),
  ) {}

  /** Opens every socket (websocket transport, no polling) and waits for each to connect. */
  async connect(): Promise<void> {
    const open = (m: BenchMember) =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(this.url, {
          transports: ['websocket'],
          auth: m.auth,
          reconnection: false,
          timeout: 20_000,
        });
        socket.once('connect', () => resolve(socket));
        socket.once('connect_error', (e) => reject(new Error(`socket of ${m.id}: ${e.message}`)));
        socket.on('new_message', (message: { clientId?: string | null }) => this.delivered(message.clientId));
      });
    for (let i = 0; i < this.members.length; i += CONNECT_CONCURRENCY) {
      const batch = this.members.slice(i, i + CONNECT_CONCURRENCY);
      this.sockets.push(...(await Promise.all(batch.map(open))));
    }
  }

  /** CPU per second of each probed server process while the sockets are connected and nobody sends. */
  async idleCpuMsPerSecond(seconds: number): Promise<Record<string, number>> {
    const before = await this.probe();
    const start = performance.now();
    await pause(seconds * 1000);
    const after = await this.probe();
    const elapsed = (performance.now() - start) / 1000;
    return Object.fromEntries(
      Object.entries(after).map(([name, ms]) => [name, round((ms - (before[name] ?? 0)) / elapsed)]),
    );
  }

  /** Waits until every message sent so far is answered and delivered (or refused), at most `timeoutMs`. */
  async settle(timeoutMs: number): Promise<void> {
    const until = performance.now() + timeoutMs;
    const open = () =>
      [...this.tracked.values()].some(
        (t) => t.ackedAt === undefined || (t.error === undefined && t.deliveredAt === undefined),
      );
    while (performance.now() < until && open()) await pause(50);
    this.tracked.clear();
  }

  close(): void {
    for (const s of this.sockets.splice(0)) s.disconnect();
  }

  private delivered(clientId: string | null | undefined): void {
    const t = clientId ? this.tracked.get(clientId) : undefined;
    if (t && t.deliveredAt === undefined) t.deliveredAt = performance.now();
  }

  /** Message number `k`: pairs in turn, each direction in turn. */
  private send(k: number, sent: Map<string, Tracked>): void {
    const pairs = this.members.length / 2;
    const pair = k % pairs;
    const forward = Math.floor(k / pairs) % 2 === 0;
    const from = 2 * pair + (forward ? 0 : 1);
    const to = 2 * pair + (forward ? 1 : 0);
    const clientId = `${this.tag}-${++this.sequence}`;
    const t: Tracked = { sentAt: performance.now() };
    this.tracked.set(clientId, t);
    sent.set(clientId, t);
    this.sockets[from]
      .timeout(ACK_TIMEOUT_MS)
      .emit(
        'send_message',
        { recipientId: this.members[to].id, content: content(k), clientId },
        (err: Error | null, answer: { error?: string; code?: string } | undefined) => {
          t.ackedAt = performance.now();
          if (err) t.error = 'no acknowledgement within 15 s';
          else if (answer && typeof answer.error === 'string')
            t.error = `${answer.code ?? 'error'}: ${answer.error}`;
        },
      );
  }

  /**
   * Offers `rate` messages a second for `seconds` (sends follow the clock in 5 ms ticks whatever
   * the answers do), then waits up to `drainMs` for the outstanding ones, and measures.
   */
  async phase(label: string, rate: number, seconds: number, drainMs = 5_000): Promise<PhaseResult> {
    const sent = new Map<string, Tracked>();
    const cpu = process.cpuUsage();
    const serverCpu = await this.probe();
    const start = performance.now();
    const end = start + seconds * 1000;
    let k = 0;
    while (performance.now() < end) {
      const due = Math.floor(((performance.now() - start) / 1000) * rate);
      while (k < due) this.send(k++, sent);
      await pause(5);
    }
    const windowEnd = performance.now();
    const drainUntil = windowEnd + drainMs;
    const settled = () =>
      [...sent.values()].every(
        (t) => t.ackedAt !== undefined && (t.error !== undefined || t.deliveredAt !== undefined),
      );
    while (performance.now() < drainUntil && !settled()) await pause(20);
    const used = process.cpuUsage(cpu);
    const serverCpuAfter = await this.probe();
    const elapsedMs = performance.now() - start;

    const all = [...sent.values()];
    const latencies = all
      .filter((t) => t.deliveredAt !== undefined)
      .map((t) => (t.deliveredAt as number) - t.sentAt)
      .sort((a, b) => a - b);
    const acks = all
      .filter((t) => t.ackedAt !== undefined && !t.error)
      .map((t) => (t.ackedAt as number) - t.sentAt)
      .sort((a, b) => a - b);
    const errorKinds: Record<string, number> = {};
    for (const t of all) if (t.error) errorKinds[t.error] = (errorKinds[t.error] ?? 0) + 1;
    const inWindow = (at: number | undefined) => at !== undefined && at <= windowEnd;
    const result: PhaseResult = {
      label,
      offeredPerSecond: rate,
      seconds,
      sent: all.length,
      acked: acks.length,
      delivered: latencies.length,
      lost: all.filter((t) => t.ackedAt !== undefined && !t.error && t.deliveredAt === undefined).length,
      errors: all.filter((t) => t.error).length,
      errorKinds,
      deliveredPerSecond: Math.round(
        all.filter((t) => inWindow(t.deliveredAt)).length / ((windowEnd - start) / 1000),
      ),
      ackedPerSecond: Math.round(
        all.filter((t) => !t.error && inWindow(t.ackedAt)).length / ((windowEnd - start) / 1000),
      ),
      p50: round(percentile(latencies, 50)),
      p95: round(percentile(latencies, 95)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies[latencies.length - 1] ?? NaN),
      ackP50: round(percentile(acks, 50)),
      ackP99: round(percentile(acks, 99)),
      clientCpuPercent: Math.round(((used.user + used.system) / 1000 / elapsedMs) * 100),
      serverCpuMsPerMessage: Object.fromEntries(
        Object.entries(serverCpuAfter).map(([name, ms]) => [
          name,
          // Hundredths: the per-process shares are a few tenths of a millisecond.
          latencies.length ? Math.round(((ms - (serverCpu[name] ?? 0)) / latencies.length) * 100) / 100 : NaN,
        ]),
      ),
    };
    // Messages still open stay tracked (settle() waits for them); the answered ones are done.
    for (const [id, t] of sent) {
      if (t.ackedAt !== undefined && (t.error !== undefined || t.deliveredAt !== undefined))
        this.tracked.delete(id);
    }
    return result;
  }
}

/**
 * Throughput: offered rates from `start` upwards, `stepSeconds` each, until the deliveries fall
 * behind (under 90 % of the offered rate), errors pass 1 %, or p99 passes 2 s; the highest
 * delivered/s seen is the server's saturation throughput.
 */
export async function ramp(
  fleet: Fleet,
  name: string,
  {
    start,
    stepSeconds,
    maxRate,
    log,
  }: { start: number; stepSeconds: number; maxRate: number; log: (line: string) => void },
): Promise<{ steps: PhaseResult[]; maxDeliveredPerSecond: number; saturatedAt: number | null }> {
  const steps: PhaseResult[] = [];
  let saturatedAt: number | null = null;
  for (let rate = start; rate <= maxRate; rate = Math.round(rate * 1.5)) {
    const step = await fleet.phase(`${name} ramp ${rate}/s`, rate, stepSeconds, 3_000);
    steps.push(step);
    log(
      `${name}: offered ${rate}/s → delivered ${step.deliveredPerSecond}/s, p99 ${step.p99} ms, ` +
        `${step.errors} errors, client CPU ${step.clientCpuPercent} %, server CPU ms per message ` +
        (Object.entries(step.serverCpuMsPerMessage)
          .map(([process, ms]) => `${process} ${ms}`)
          .join(', ') || '–'),
    );
    if (step.deliveredPerSecond < 0.9 * rate || step.errors > 0.01 * step.sent || !(step.p99 < 2000)) {
      saturatedAt = rate;
      break;
    }
  }
  return { steps, maxDeliveredPerSecond: Math.max(...steps.map((s) => s.deliveredPerSecond)), saturatedAt };
}
