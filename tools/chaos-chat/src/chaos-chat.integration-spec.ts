import { Client } from 'pg';
import {
  ChatSync,
  createApiClient,
  createSocketClient,
  type ChatEntry,
  type SocketClient,
} from '@mate/api-client';
import type { SessionEndReason } from '@mate/contracts';
import { createTestDatabase, startOwnRedisServer, type OwnRedisServer, type TestDatabase } from '@mate/testing';
import {
  openConversations,
  signInMembers,
  startChatPlatform,
  type ChatMemberSession,
  type ChatPlatform,
} from './launcher';

/**
 * The chat fault test (issue 9 "Proof", `npm run test:chaos-chat`): two members' ChatSync engines
 * exchange 1,000 messages through the real gateway and chat-service (built, in their own
 * processes, on this test's own redis-server and database) while chat-service, then the gateway,
 * then Redis are killed with SIGKILL and started again. Afterwards both sides, and the database,
 * hold every message exactly once, in each sender's order, with no hole in the sequence.
 */

const TOTAL = 1000;
/** One message every 40 ms, the two members alternating: the run lasts about 40 s. */
const SEND_INTERVAL_MS = 40;
/** After how many messages each fault starts (chat-service, then the gateway, then Redis). */
const FAULTS: { at: number; target: 'chat-service' | 'gateway' | 'redis' }[] = [
  { at: 200, target: 'chat-service' },
  { at: 450, target: 'gateway' },
  { at: 700, target: 'redis' },
];
/**
 * How long the exchange may take to settle after the last message was sent. Queued sends drain
 * one round trip at a time per conversation (each sender's order): on a busy 2-vCPU machine (load
 * 12, `npm test` running suites side by side) a round trip can outlast the 80 ms between one
 * side's messages, so a backlog built during the outages drains only after the last send (27 s
 * seen). The wait fails early when nothing moves for SETTLE_STALL_MS (something is stuck, not
 * slow), and in any case after SETTLE_TIMEOUT_MS: 40 s of sending + 120 s keeps the test body
 * under 3 minutes.
 */
const SETTLE_TIMEOUT_MS = 120_000;
const SETTLE_STALL_MS = 45_000;

interface Side {
  name: 'A' | 'B';
  member: ChatMemberSession;
  other: ChatMemberSession;
  socket: SocketClient;
  sync: ChatSync;
  ended: SessionEndReason[];
  /** How often the socket connected (1 at the start, then once per reconnect). */
  connects: number;
}

interface FaultRecord {
  target: string;
  /** Messages handed to ChatSync when the kill came. */
  atMessage: number;
  killedAt: number;
  exitedAt: number;
  upAt: number;
  /** Messages handed to ChatSync when the process answered again. */
  sentBeforeUp: number;
  /** When every message handed over before `upAt` was acknowledged and held by both sides. */
  recoveredAt: number | null;
}

const content = (side: 'A' | 'B', n: number) => `${side}:${String(n).padStart(4, '0')}`;

/**
 * What a member may never see, checked on every change of a side's list while the run goes on
 * (not only at the end): a message twice (by id, or pending beside its stored copy), stored
 * messages out of seq order or after a pending one, a sender's messages out of the order sent,
 * or a message (or a pending entry) that was shown and went away.
 */
class DisplayWatch {
  readonly violations: string[] = [];
  checks = 0;
  private last: readonly ChatEntry[] | null = null;
  private readonly shown = new Set<string>();

  constructor(private readonly side: string) {}

  check(entries: readonly ChatEntry[]): void {
    if (entries === this.last) return;
    this.last = entries;
    this.checks++;
    const fail = (what: string) => {
      if (this.violations.length < 20) this.violations.push(`${this.side}: ${what}`);
    };
    const ids = new Set<string>();
    const visible = new Set<string>();
    const lastOf: Record<string, number> = {};
    let lastSeq = 0;
    let pendingSeen = false;
    for (const e of entries) {
      if (e.message) {
        if (pendingSeen) fail(`stored ${e.content} after a pending entry`);
        if (e.message.seq <= lastSeq) fail(`seq ${e.message.seq} after seq ${lastSeq}`);
        lastSeq = e.message.seq;
        if (ids.has(e.message.id)) fail(`message ${e.message.id} twice`);
        ids.add(e.message.id);
        visible.add(`id:${e.message.id}`);
      } else pendingSeen = true;
      if (e.clientId) {
        if (visible.has(`client:${e.clientId}`)) fail(`clientId ${e.clientId} twice (${e.content})`);
        visible.add(`client:${e.clientId}`);
      }
      const [who, n] = e.content.split(':');
      const k = Number(n);
      if (lastOf[who] !== undefined && k <= lastOf[who])
        fail(`${e.content} shown after ${who}:${lastOf[who]}`);
      lastOf[who] = k;
    }
    for (const key of this.shown) if (!visible.has(key)) fail(`${key} was shown and went away`);
    for (const key of visible) this.shown.add(key);
  }
}

function sleepUntil(time: number): Promise<void> {
  const wait = time - Date.now();
  return wait > 0 ? new Promise((r) => setTimeout(r, wait)) : Promise.resolve();
}

async function waitUntil(
  check: () => boolean,
  timeoutMs: number,
  what: string,
  describeState: () => string,
  /** With `stallMs`: fails sooner when `progress()` has not changed for that long. */
  stall?: { progress: () => string; stallMs: number },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = stall?.progress();
  let movedAt = Date.now();
  while (!check()) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}: ${describeState()}`);
    if (stall) {
      const now = stall.progress();
      if (now !== last) {
        last = now;
        movedAt = Date.now();
      } else if (Date.now() - movedAt > stall.stallMs) {
        throw new Error(
          `nothing moved for ${stall.stallMs} ms while waiting for ${what}: ${describeState()}`,
        );
      }
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('chat under faults (chaos)', () => {
  let redis: OwnRedisServer | null = null;
  let db: TestDatabase | null = null;
  let platform: ChatPlatform | null = null;
  const sides: Side[] = [];
  /** Set when the suite ends: a fault still between its kill and its restart does not restart. */
  let stopping = false;
  let faultChain: Promise<void> = Promise.resolve();

  beforeAll(async () => {
    redis = await startOwnRedisServer();
    db = await createTestDatabase('chat_chaos');
    platform = await startChatPlatform({
      redisUrl: redis.url,
      databaseUrl: db.url,
      // A dead chat-service answers at once (connection refused); a hung one after 5 s, not 10.
      gatewayEnv: { SOCKET_ACK_TIMEOUT_MS: '5000' },
    });
    const [a, b] = await signInMembers(platform, 2);
    await openConversations(db.url, [[a.userId, b.userId]]);
    for (const [name, member, other] of [
      ['A', a, b],
      ['B', b, a],
    ] as const) {
      const ended: SessionEndReason[] = [];
      const socket = createSocketClient({
        baseUrl: platform.gateway.url,
        getToken: () => member.token,
        onSessionEnded: (reason) => ended.push(reason),
      });
      const api = createApiClient({ baseUrl: platform.gateway.url, getToken: () => member.token });
      const sync = new ChatSync({ socket, api: api.chat, selfId: member.userId });
      const side: Side = { name, member, other, socket, sync, ended, connects: 0 };
      socket.socket.on('connect', () => side.connects++);
      sides.push(side);
      sync.start();
      socket.connect();
    }
    await waitUntil(
      () => sides.every((s) => s.sync.connected),
      20_000,
      'both sockets',
      () => '',
    );
    for (const s of sides) await s.sync.open(s.other.userId);
  }, 120_000);

  afterAll(async () => {
    stopping = true;
    for (const s of sides) {
      s.sync.stop();
      s.socket.disconnect();
    }
    await platform?.stop().catch(() => undefined);
    await redis?.stop().catch(() => undefined);
    await db?.drop().catch(() => undefined);
  }, 60_000);

  it('two members exchange 1,000 messages through kills of chat-service, the gateway and Redis: each held once, in order, nothing lost', async () => {
    const [A, B] = sides;
    const p = platform as ChatPlatform;
    const r = redis as OwnRedisServer;
    const faults: FaultRecord[] = [];
    let handedOver = 0;

    /** Whether message `k` (of the schedule) is acknowledged on its sender's side and held by the other. */
    const stored = (side: Side) => {
      const out = new Set<string>();
      for (const e of side.sync.entries(side.other.userId)) if (e.message) out.add(e.content);
      return out;
    };
    const checkRecoveries = () => {
      const pendingFaults = faults.filter((f) => f.recoveredAt === null && f.upAt > 0);
      if (!pendingFaults.length) return;
      const held = [stored(A), stored(B)];
      for (const f of pendingFaults) {
        let all = true;
        for (let k = 0; k < f.sentBeforeUp && all; k++) {
          const c = content(k % 2 ? 'B' : 'A', Math.floor(k / 2));
          all = held[0].has(c) && held[1].has(c);
        }
        if (all) f.recoveredAt = Date.now();
      }
    };
    const watches = sides.map((s) => new DisplayWatch(s.name));
    const maxUnsent = [0, 0];
    const watchAll = () =>
      sides.forEach((s, i) => {
        watches[i].check(s.sync.entries(s.other.userId));
        maxUnsent[i] = Math.max(maxUnsent[i], s.sync.unsent.length);
      });
    const unsubscribes = sides.flatMap((s) => [
      s.sync.subscribe(checkRecoveries),
      s.sync.subscribe(watchAll),
    ]);

    const runFault = async (target: FaultRecord['target']) => {
      const f: FaultRecord = {
        target,
        atMessage: handedOver,
        killedAt: Date.now(),
        exitedAt: 0,
        upAt: 0,
        sentBeforeUp: 0,
        recoveredAt: null,
      };
      faults.push(f);
      if (target === 'chat-service') await p.chat.kill();
      else if (target === 'gateway') await p.gateway.kill();
      else await r.kill();
      f.exitedAt = Date.now();
      if (stopping) return;
      if (target === 'chat-service') await p.chat.start();
      else if (target === 'gateway') await p.gateway.start();
      else await r.start();
      f.upAt = Date.now();
      f.sentBeforeUp = handedOver;
      checkRecoveries();
    };

    const started = Date.now();
    const faultRuns: Promise<void>[] = [];
    for (let k = 0; k < TOTAL; k++) {
      await sleepUntil(started + k * SEND_INTERVAL_MS);
      const fault = FAULTS.find((x) => x.at === k);
      if (fault) {
        // One fault at a time: each waits for the previous restart.
        faultChain = faultChain.then(() => runFault(fault.target));
        faultRuns.push(faultChain);
        // Awaited after the sends; marked handled now, so a failed restart fails this test (and
        // afterAll still cleans up) instead of surfacing as an unhandled rejection mid-run.
        faultChain.catch(() => undefined);
      }
      const sender = k % 2 ? B : A;
      sender.sync.send(sender.other.userId, content(sender.name, Math.floor(k / 2)));
      handedOver = k + 1;
    }
    const lastSentAt = Date.now();
    await Promise.all(faultRuns);

    const describeState = () =>
      sides
        .map((s) => {
          const entries = s.sync.entries(s.other.userId);
          const byStatus = entries.reduce<Record<string, number>>(
            (acc, e) => ((acc[e.status] = (acc[e.status] ?? 0) + 1), acc),
            {},
          );
          return `${s.name}: ${entries.length} entries ${JSON.stringify(byStatus)} connected=${s.sync.connected} stats=${JSON.stringify(s.sync.stats)}`;
        })
        .join(' | ');
    await waitUntil(
      () =>
        sides.every(
          (s) =>
            s.sync.entries(s.other.userId).filter((e) => e.message).length >= TOTAL &&
            s.sync.unsent.length === 0,
        ),
      // Counted from the last send (a slow restart awaited above does not extend the bound).
      Math.max(0, SETTLE_TIMEOUT_MS - (Date.now() - lastSentAt)),
      'every message acknowledged and held by both sides',
      describeState,
      {
        progress: () =>
          sides.map((s) => `${s.sync.entries(s.other.userId).length}/${s.sync.unsent.length}`).join(),
        stallMs: SETTLE_STALL_MS,
      },
    );
    const settledAt = Date.now();
    checkRecoveries();
    watchAll();
    for (const off of unsubscribes) off();
    // Never, at any moment of the run, a message shown twice, out of order, or taken back.
    expect(watches.flatMap((w) => w.violations)).toEqual([]);
    for (const w of watches) expect(w.checks).toBeGreaterThan(TOTAL);

    // Both sides: exactly the 1,000 messages, once each, seq 1..1000, each sender's in order.
    const lists = sides.map((s) => s.sync.entries(s.other.userId));
    for (const entries of lists) {
      expect(entries).toHaveLength(TOTAL);
      expect(entries.filter((e) => e.status === 'pending' || e.status === 'failed')).toEqual([]);
      expect(new Set(entries.map((e) => e.message?.id)).size).toBe(TOTAL);
      expect(entries.map((e) => e.message?.seq)).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
      for (const side of ['A', 'B'] as const) {
        const mine = entries.filter((e: ChatEntry) => e.content.startsWith(`${side}:`)).map((e) => e.content);
        expect(mine).toEqual(Array.from({ length: TOTAL / 2 }, (_, i) => content(side, i)));
      }
    }
    expect(lists[0].map((e) => e.message?.id)).toEqual(lists[1].map((e) => e.message?.id));
    expect(lists[0].map((e) => e.message?.clientId)).toEqual(lists[1].map((e) => e.message?.clientId));
    expect(sides.map((s) => s.ended)).toEqual([[], []]);

    // The database: 1,000 rows, one per (sender, client id), seq 1..1000 without a gap.
    const pg = new Client({ connectionString: (db as TestDatabase).url });
    await pg.connect();
    let row: Record<string, string>;
    let dbRows: { id: string; seq: number; client_id: string; content: string; sender_id: string }[];
    try {
      dbRows = (await pg.query(`SELECT id, seq, client_id, content, sender_id FROM message ORDER BY seq`))
        .rows;
      const res = await pg.query(
        `SELECT count(*)::int AS rows, count(DISTINCT (sender_id, client_id))::int AS unique_client_ids,
                count(DISTINCT seq)::int AS distinct_seqs, min(seq) AS min_seq, max(seq) AS max_seq,
                count(DISTINCT content)::int AS distinct_contents, count(DISTINCT conversation_id)::int AS conversations
           FROM message`,
      );
      row = res.rows[0];
    } finally {
      await pg.end();
    }
    expect(row).toEqual({
      rows: TOTAL,
      unique_client_ids: TOTAL,
      distinct_seqs: TOTAL,
      min_seq: 1,
      max_seq: TOTAL,
      distinct_contents: TOTAL,
      conversations: 1,
    });
    // What both members hold is exactly what the database holds, message for message.
    const expected = dbRows.map((m) => [m.id, m.seq, m.client_id, m.content, m.sender_id]);
    for (const entries of lists)
      expect(
        entries.map((e) => [e.message?.id, e.message?.seq, e.message?.clientId, e.content, e.senderId]),
      ).toEqual(expected);

    const stats = sides.map((s) => s.sync.stats);
    const sum = (key: keyof (typeof stats)[number]) => stats[0][key] + stats[1][key];
    const lines = [
      `chaos-chat: ${TOTAL} messages (500 each way, one every ${SEND_INTERVAL_MS} ms) in ${((lastSentAt - started) / 1000).toFixed(1)} s, settled ${settledAt - lastSentAt} ms after the last send`,
      `  sent ${TOTAL}, acked ${sum('acked')}, send attempts ${sum('sendAttempts')} (retried ${sum('retries')})`,
      `  delivered live ${sum('deliveredLive')}, by resume ${sum('deliveredByResume')} (gaps noticed ${sum('gapsFilled')}, resumes ${sum('resumes')}, socket connects A ${A.connects} B ${B.connects})`,
      `  duplicates held 0 (repeat arrivals dropped by id: ${sum('duplicatesDropped')}); database rows ${row.rows}, unique (sender, client_id) ${row.unique_client_ids}, seq ${row.min_seq}..${row.max_seq}`,
      `  displayed lists checked on every change: A ${watches[0].checks}, B ${watches[1].checks} times, 0 violations; most queued unsent at once: A ${maxUnsent[0]}, B ${maxUnsent[1]}`,
      ...faults.map(
        (f) =>
          `  ${f.target.padEnd(12)} killed at message ${f.atMessage}: exited in ${f.exitedAt - f.killedAt} ms, answering again after ${f.upAt - f.killedAt} ms, ` +
          `all ${f.sentBeforeUp} earlier messages acked and delivered ${f.recoveredAt === null ? 'never' : `${f.recoveredAt - f.killedAt} ms`} after the kill`,
      ),
    ];
    process.stdout.write(`\n${lines.join('\n')}\n\n`);

    expect(sum('acked')).toBe(TOTAL);
    expect(sum('deliveredLive') + sum('deliveredByResume')).toBe(TOTAL);
    expect(faults.map((f) => f.target)).toEqual(['chat-service', 'gateway', 'redis']);
    for (const f of faults) expect(f.recoveredAt).not.toBeNull();
  }, 180_000);
});
