import { startChaosPlatform, type FaultPlatform, type Target } from './platform';
import { seedMembers, signIn, waitFor } from './population';
import { Member } from './member';
import { isServerFailure, Traffic, type RequestRecord } from './traffic';
import { messageChecks, platformChecks, settleChecks, type CheckResult, type SentMessage } from './invariants';

/**
 * One chaos run: a population of members in pairs signs in through the gateway, fetches
 * suggestions, likes its partner (a match), chats with ChatSync and calls (signalling only), while
 * each target in turn is killed with SIGKILL and started again. Then the invariants are checked
 * and every request is counted against the kill windows.
 */

/**
 * A 5xx, network error or unavailable socket request is allowed inside a fault's window (kill to
 * ready again) and for this long after it: a client that saw a dead peer retries with its own
 * backoff (socket.io reconnects 1 s doubling to 5 s; ChatSync resends on its retry delay), and
 * the gateway's pooled connections to a restarted service are replaced on their first failure.
 * docs/adr/0020-chaos-suite.md says why 5 s.
 */
export const GRACE_MS = 5_000;

export interface ChaosOptions {
  /** Members (even: they go in pairs). */
  members: number;
  /** What to kill, in order. */
  faults: Target[];
  /** Steady traffic before the first fault, between faults and after the last. */
  steadyMs: number;
  /** Each chatting pair sends one message this often (the two members alternating). */
  messageEveryMs: number;
  /** Each matched pair calls this often. */
  callEveryMs: number;
  /** Each member reads one of its screens (a GET) this often. */
  readEveryMs: number;
  log?: (line: string) => void;
  /** The platform to run on; default: one process per service and one redis-server (startChaosPlatform). */
  platform?: (log: (line: string) => void) => Promise<FaultPlatform>;
}

export interface FaultRecord {
  target: Target;
  killedAt: number;
  exitedAt: number;
  upAt: number;
  /** Messages handed to ChatSync up to the moment the target answered again. */
  handedBeforeUp: number;
  /** When every message handed before upAt was acknowledged and held by both members. */
  recoveredAt: number | null;
}

export interface FaultRow {
  fault: string;
  downMs: number;
  windowMs: number;
  requests: number;
  failuresInWindow: number;
  failuresInGrace: number;
  messagesHanded: number;
  messagesAcked: number;
  recoveryMs: number | null;
  /** The failures after ready again (in the grace), grouped: `GET /api/chat/conversations 502 ×3`. */
  graceFailures: string[];
}

export interface ChaosResult {
  rows: FaultRow[];
  failuresOutside: RequestRecord[];
  requests: number;
  refused: RequestRecord[];
  messages: { handed: number; acked: number; delivered: number };
  matches: number;
  calls: { attempted: number; answered: number };
  checks: CheckResult[];
  settleMs: number;
  durationMs: number;
}

/** Reads a member may make (one per tick, in turn): each service answers at least one. */
const READS = [
  '/api/auth/me',
  '/api/sessions/my',
  '/api/profile/me',
  '/api/preferences/me',
  '/api/matches/suggestions?limit=20',
  '/api/matches/my-matches',
  '/api/chat/conversations',
  '/api/chat/unread-count',
  '/api/calls/history',
  '/api/safety/blocked',
  '/api/notifications/preferences',
];

interface Pair {
  index: number;
  a: Member;
  b: Member;
  /**
   * The fault whose kill starts this pair's likes (a match made under fire), or null for a pair that
   * likes at once. Tied to the fault, not to a time: how fast a target recovers must not decide
   * whether a pair gets its turn before the run ends.
   */
  matchDuring: number | null;
  /** Resolved when the pair's turn comes: at once, or when its fault's target is killed. */
  turn: Promise<void>;
  beginTurn: () => void;
  matched: boolean;
  chatting: boolean;
  sent: { from: Member; to: Member; content: string; handedAt: number }[];
}

/** Records grouped by request and status, most frequent first. */
function grouped(records: RequestRecord[]): string[] {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(`${r.what} ${r.status}`, (counts.get(`${r.what} ${r.status}`) ?? 0) + 1);
  return [...counts].sort((x, y) => y[1] - x[1]).map(([k, n]) => `${k} ×${n}`);
}

/**
 * When each pair (members two by two) likes its partner: null for at once (half of them, rounded
 * up), else the index of the fault whose kill starts its likes, the late pairs spread evenly over
 * the faults in order. Every index is a fault the run makes, so every pair gets its turn.
 */
export function pairTurns(memberCount: number, faultCount: number): (number | null)[] {
  const pairCount = Math.floor(memberCount / 2);
  const late = faultCount ? Math.floor(memberCount / 4) : 0;
  return Array.from({ length: pairCount }, (_, index) => {
    const lateIndex = index - (pairCount - late);
    return lateIndex < 0 ? null : Math.floor(((lateIndex + 0.5) / late) * faultCount);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const runStarted = Date.now();
  const log = (line: string) => options.log?.(`+${((Date.now() - runStarted) / 1000).toFixed(1)} s ${line}`);
  let platform: FaultPlatform | null = null;
  const members: Member[] = [];
  let running = true;
  const loops: Promise<void>[] = [];
  try {
    platform = await (options.platform ?? ((l) => startChaosPlatform({ log: l })))(log);
    const p = platform;
    const seeded = await seedMembers(p, options.members, log);
    const traffic = new Traffic();
    for (const s of seeded) {
      const signedIn = await signIn(p.gatewayUrl, s, traffic.fetch);
      members.push(new Member(p.gatewayUrl, signedIn, traffic));
    }
    for (const m of members) m.connect();
    await waitFor(async () => members.every((m) => m.sync.connected), 60_000, 'every member connected');
    log(`${members.length} members signed in and connected`);

    // Half the pairs match at once; the others one after the other while the faults run, each
    // starting its likes when its fault's target is killed (spread evenly over the faults).
    const pairs: Pair[] = [];
    const plan = pairTurns(members.length, options.faults.length);
    for (let i = 0; i + 1 < members.length; i += 2) {
      const index = i / 2;
      const matchDuring = plan[index];
      let beginTurn!: () => void;
      const turn = new Promise<void>((resolve) => {
        beginTurn = resolve;
      });
      if (matchDuring === null) beginTurn();
      pairs.push({ index, a: members[i], b: members[i + 1], matchDuring, turn, beginTurn, matched: false, chatting: false, sent: [] });
    }
    const sent = (): SentMessage[] =>
      pairs.flatMap((pair) =>
        pair.sent.map((s) => ({ conversationOf: [pair.a.userId, pair.b.userId] as [string, string], senderId: s.from.userId, content: s.content })),
      );
    const heldBy = (m: Member, other: Member) => {
      const out = new Set<string>();
      for (const e of m.sync.entries(other.userId)) if (e.message) out.add(e.content);
      return out;
    };
    /** Handed messages acknowledged by their sender and held by both. */
    const settled = (pair: Pair, upTo = Infinity) => {
      const ha = heldBy(pair.a, pair.b);
      const hb = heldBy(pair.b, pair.a);
      return pair.sent.filter((s) => s.handedAt <= upTo).every((s) => ha.has(s.content) && hb.has(s.content));
    };
    const calls = { attempted: 0, answered: 0 };

    const t0 = Date.now();
    const pairLoop = async (pair: Pair) => {
      await pair.turn;
      // Suggestions, then each likes the other (a like refused while matching is down is tried again).
      while (running && !pair.matched) {
        await pair.a.http('GET', '/api/matches/suggestions?limit=20');
        await pair.b.http('GET', '/api/matches/suggestions?limit=20');
        const first = await pair.a.http<{ matched: boolean }>('POST', `/api/matches/like/${pair.b.userId}`);
        const second = await pair.b.http<{ matched: boolean }>('POST', `/api/matches/like/${pair.a.userId}`);
        if (first.status < 300 && second.status < 300 && (first.body?.matched || second.body?.matched)) pair.matched = true;
        else await sleep(500);
      }
      // chat-service opens the conversation when match.created reaches it.
      while (running && !pair.chatting) {
        const [ca, cb] = await Promise.all([
          pair.a.http<{ userId: string }[]>('GET', '/api/chat/conversations'),
          pair.b.http<{ userId: string }[]>('GET', '/api/chat/conversations'),
        ]);
        const open = ca.body?.some?.((c) => c.userId === pair.b.userId) && cb.body?.some?.((c) => c.userId === pair.a.userId);
        if (open) {
          try {
            await pair.a.sync.open(pair.b.userId);
            await pair.b.sync.open(pair.a.userId);
            pair.chatting = true;
          } catch {
            /* opened again on the next turn */
          }
        }
        if (!pair.chatting) await sleep(300);
      }
      let n = 0;
      let nextCall = Date.now() + options.callEveryMs * (0.5 + Math.random() * 0.5);
      while (running) {
        const [from, to] = n % 2 ? [pair.b, pair.a] : [pair.a, pair.b];
        const content = `p${pair.index}:${n % 2 ? 'b' : 'a'}:${String(Math.floor(n / 2)).padStart(5, '0')}`;
        from.sync.send(to.userId, content);
        pair.sent.push({ from, to, content, handedAt: Date.now() });
        n++;
        if (Date.now() >= nextCall) {
          nextCall = Date.now() + options.callEveryMs;
          if (pair.a.socket.socket.connected && pair.b.socket.socket.connected) {
            calls.attempted++;
            void pair.a.call(pair.b, 5_000).then((answered) => {
              if (answered) calls.answered++;
            });
          }
        }
        await sleep(options.messageEveryMs);
      }
    };
    const readLoop = async (m: Member, offset: number) => {
      let k = offset;
      await sleep(Math.random() * options.readEveryMs);
      while (running) {
        await m.http('GET', READS[k++ % READS.length]);
        await sleep(options.readEveryMs);
      }
    };
    for (const pair of pairs) loops.push(pairLoop(pair));
    members.forEach((m, i) => loops.push(readLoop(m, i)));

    await waitFor(async () => pairs.filter((x) => x.matchDuring === null).every((x) => x.chatting), 90_000, 'the first pairs chatting');
    log(`warm-up done after ${Date.now() - t0} ms: ${pairs.filter((x) => x.chatting).length} pairs chatting`);

    const faults: FaultRecord[] = [];
    const handedCount = () => pairs.reduce((sum, x) => sum + x.sent.length, 0);
    const recoveryWatch = setInterval(() => {
      for (const f of faults) {
        if (f.recoveredAt !== null || !f.upAt) continue;
        if (pairs.every((x) => settled(x, f.upAt))) f.recoveredAt = Date.now();
      }
    }, 100);

    for (const [faultIndex, target] of options.faults.entries()) {
      await sleep(options.steadyMs);
      const f: FaultRecord = { target, killedAt: Date.now(), exitedAt: 0, upAt: 0, handedBeforeUp: 0, recoveredAt: null };
      faults.push(f);
      for (const pair of pairs) if (pair.matchDuring === faultIndex) pair.beginTurn();
      await p.kill(target);
      f.exitedAt = Date.now();
      await p.start(target);
      f.upAt = Date.now();
      f.handedBeforeUp = handedCount();
      log(`${target}: killed, exited after ${f.exitedAt - f.killedAt} ms, ready again after ${f.upAt - f.killedAt} ms`);
    }
    await sleep(options.steadyMs);
    // Every pair has had its turn: the run ends only once the pairs that matched under fire chat
    // too (each has handed over a message), however quickly the last fault recovered.
    await waitFor(async () => pairs.every((x) => x.sent.length > 0), 120_000, 'every pair matched and chatting').catch((e) => log(String(e)));
    running = false;
    await Promise.all(loops);
    const settleStarted = Date.now();
    await waitFor(async () => pairs.every((x) => settled(x)), 120_000, 'every message acknowledged and held by both members').catch((e) => log(String(e)));
    const settleMs = Date.now() - settleStarted;
    clearInterval(recoveryWatch);
    // Calls still ringing end within their answer timeout.
    await sleep(0);

    const memberIds = members.map((m) => m.userId);
    const checks = await settleChecks(
      [...messageChecks(p.databases['chat-service'], sent, memberIds), ...platformChecks(p.databases, memberIds)],
      60_000,
    );
    const clientProblems: string[] = [];
    for (const pair of pairs) {
      const ea = pair.a.sync.entries(pair.b.userId).filter((e) => e.message).map((e) => e.message?.id);
      const eb = pair.b.sync.entries(pair.a.userId).filter((e) => e.message).map((e) => e.message?.id);
      if (ea.join() !== eb.join()) clientProblems.push(`pair ${pair.index}: the two members hold different lists`);
      if (new Set(ea).size !== ea.length) clientProblems.push(`pair ${pair.index}: a message held twice`);
      const failed = [...pair.a.sync.entries(pair.b.userId), ...pair.b.sync.entries(pair.a.userId)].filter((e) => e.status === 'failed');
      if (failed.length) clientProblems.push(`pair ${pair.index}: ${failed.length} messages failed (${failed[0].error})`);
      if (!pair.matched) clientProblems.push(`pair ${pair.index}: never matched`);
    }
    checks.unshift({ name: 'clients: both members of a pair hold the same messages, each once, none failed', problems: clientProblems, heldAfterMs: clientProblems.length ? null : 0 });

    const records = traffic.records;
    const windowOf = (f: FaultRecord) => [f.killedAt, f.upAt, f.upAt + GRACE_MS] as const;
    // A failure belongs to the window it overlaps; only one overlapping no window counts in a grace
    // (the next fault may be killed before the last one's grace has passed).
    const inAnyWindow = (r: RequestRecord) => faults.some((f) => r.endedAt >= f.killedAt && r.startedAt <= f.upAt);
    const rows: FaultRow[] = faults.map((f) => {
      const [from, up, graceEnd] = windowOf(f);
      const inSpan = records.filter((r) => r.endedAt >= from && r.startedAt <= graceEnd);
      const failures = inSpan.filter((r) => isServerFailure(r) && (r.startedAt <= up || !inAnyWindow(r)));
      const handed = pairs.flatMap((x) => x.sent.filter((s) => s.handedAt >= from && s.handedAt <= up).map((s) => ({ s, pair: x })));
      return {
        fault: f.target,
        downMs: f.exitedAt - f.killedAt,
        windowMs: up - from,
        requests: inSpan.length,
        failuresInWindow: failures.filter((r) => r.startedAt <= up).length,
        failuresInGrace: failures.filter((r) => r.startedAt > up).length,
        messagesHanded: handed.length,
        messagesAcked: handed.filter(({ s }) => heldBy(s.from, s.to).has(s.content)).length,
        recoveryMs: f.recoveredAt === null ? null : f.recoveredAt - up,
        graceFailures: grouped(failures.filter((r) => r.startedAt > up)),
      };
    });
    const failuresOutside = records.filter(
      (r) => isServerFailure(r) && !faults.some((f) => r.endedAt >= f.killedAt && r.startedAt <= f.upAt + GRACE_MS),
    );
    const allSent = pairs.flatMap((x) => x.sent);
    return {
      rows,
      failuresOutside,
      requests: records.length,
      refused: records.filter((r) => r.status >= 400 && r.status < 500),
      messages: {
        handed: allSent.length,
        acked: allSent.filter((s) => heldBy(s.from, s.to).has(s.content)).length,
        delivered: allSent.filter((s) => heldBy(s.to, s.from).has(s.content)).length,
      },
      matches: pairs.filter((x) => x.matched).length,
      calls,
      checks,
      settleMs,
      durationMs: Date.now() - runStarted,
    };
  } finally {
    running = false;
    for (const m of members) m.close();
    await platform?.stop();
  }
}

/** The run as the table `npm run chaos` prints and tools/chaos/README.md keeps. */
export function formatResult(result: ChaosResult): string {
  const lines = [
    '| fault | exit ms | window ms (kill → ready) | requests in window + grace | 5xx/unavailable in window | in grace | messages handed in window | of them acked | recovery ms (ready → all earlier messages held by both) |',
    '|---|---|---|---|---|---|---|---|---|',
    ...result.rows.map(
      (r) =>
        `| ${r.fault} | ${r.downMs} | ${r.windowMs} | ${r.requests} | ${r.failuresInWindow} | ${r.failuresInGrace} | ${r.messagesHanded} | ${r.messagesAcked} | ${r.recoveryMs ?? 'never'} |`,
    ),
    '',
    `requests: ${result.requests}, 5xx/unavailable outside the windows + ${GRACE_MS} ms grace: ${result.failuresOutside.length}, 4xx: ${result.refused.length}`,
    `messages: ${result.messages.handed} handed to ChatSync, ${result.messages.acked} acknowledged, ${result.messages.delivered} delivered; settled ${result.settleMs} ms after the last send`,
    `matches: ${result.matches}; calls: ${result.calls.attempted} rung, ${result.calls.answered} answered`,
    `run: ${(result.durationMs / 1000).toFixed(1)} s`,
    '',
    ...result.rows.filter((r) => r.graceFailures.length).map((r) => `in ${r.fault}'s grace: ${r.graceFailures.join(', ')}`),
    '',
    ...result.checks.map((c) => `${c.problems.length ? 'FAIL' : 'ok  '} ${c.name}${c.problems.length ? `: ${c.problems.slice(0, 5).join('; ')}` : ''}`),
  ];
  if (result.failuresOutside.length) {
    lines.push('', 'failures outside the windows:', ...result.failuresOutside.slice(0, 20).map((r) => `  ${new Date(r.startedAt).toISOString()} ${r.what} ${r.status}`));
  }
  return lines.join('\n');
}
