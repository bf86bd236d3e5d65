import { Client } from 'pg';

/**
 * The checks after a run, against the services' own databases. What "exactly once in effect"
 * means for each consumer is a count its own table holds against the fact's owner:
 * - chat-service: one conversation per match of matching-service (match.created);
 * - call-service: one call_match per match (match.created);
 * - safety-service: one pair holding each match (match.created);
 * - admin-service (analytics): one analytics_event per match (subject = match id), per message
 *   (subject = conversation, seq), per like in matching's swipes, per ended call of call-service.
 * Consumers catch up after the last fault, so each check is waited for (up to `timeoutMs`); what
 * still differs then is reported. Every check reads only the rows of the run's own members
 * (`members`): a platform that ran other journeys first (npm run scale:check) holds their matches,
 * unmatches and deletions too, which these rules do not describe.
 */

export interface SentMessage {
  conversationOf: [string, string];
  senderId: string;
  content: string;
}

async function rows<T>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query(sql, values)).rows as T[];
  } finally {
    await db.end();
  }
}

const ordered = (x: string, y: string): [string, string] => (x < y ? [x, y] : [y, x]);

interface Check {
  name: string;
  /** Problems found now; empty when the invariant holds. */
  run(): Promise<string[]>;
}

export function platformChecks(databases: Record<string, string>, members: readonly string[]): Check[] {
  const matching = databases['matching-service'];
  const chat = databases['chat-service'];
  const call = databases['call-service'];
  const safety = databases['safety-service'];
  const admin = databases['admin-service'];
  const who = [members];
  const matchIds = async () =>
    (await rows<{ id: string }>(matching, 'SELECT id FROM match WHERE user_a = ANY ($1::uuid[]) OR user_b = ANY ($1::uuid[])', who)).map((r) => r.id);
  const perKey = (label: string, expected: string[], counted: { key: string; n: number }[]): string[] => {
    const problems: string[] = [];
    const byKey = new Map(counted.map((c) => [c.key, c.n]));
    for (const key of expected) {
      const n = byKey.get(key) ?? 0;
      if (n !== 1) problems.push(`${label} ${key}: ${n} (expected 1)`);
    }
    const wanted = new Set(expected);
    for (const c of counted) if (!wanted.has(c.key)) problems.push(`${label} ${c.key}: ${c.n} without its fact`);
    return problems;
  };
  return [
    {
      name: 'every match has exactly one conversation (matching vs chat)',
      run: async () =>
        perKey('conversation of match', await matchIds(), await rows(chat, `SELECT match_id::text AS key, count(*)::int AS n FROM conversation WHERE member_a = ANY ($1::uuid[]) OR member_b = ANY ($1::uuid[]) GROUP BY match_id`, who)),
    },
    {
      name: 'every match is callable once (matching vs call_match)',
      run: async () =>
        perKey('call_match of match', await matchIds(), await rows(call, `SELECT match_id::text AS key, count(*)::int AS n FROM call_match WHERE member_a = ANY ($1::uuid[]) OR member_b = ANY ($1::uuid[]) GROUP BY match_id`, who)),
    },
    {
      name: 'every match is held by its safety pair once (matching vs safety pair)',
      run: async () =>
        perKey('safety pair of match', await matchIds(), await rows(safety, `SELECT match_id::text AS key, count(*)::int AS n FROM pair WHERE match_id IS NOT NULL AND (member_a = ANY ($1::uuid[]) OR member_b = ANY ($1::uuid[])) GROUP BY match_id`, who)),
    },
    {
      name: 'analytics: one match.created fact per match',
      run: async () =>
        perKey('analytics match.created', await matchIds(), await rows(admin, `SELECT subject_id AS key, count(*)::int AS n FROM analytics_event WHERE type = 'match.created' AND (user_id = ANY ($1::uuid[]) OR other_user_id = ANY ($1::uuid[])) GROUP BY subject_id`, who)),
    },
    {
      name: 'analytics: one message.sent fact per stored message',
      run: async () => {
        const stored = await rows<{ key: string }>(chat, `SELECT conversation_id::text || '#' || seq AS key FROM message WHERE sender_id = ANY ($1::uuid[]) OR recipient_id = ANY ($1::uuid[])`, who);
        const facts = await rows<{ key: string; n: number }>(
          admin,
          `SELECT subject_id || '#' || (props->>'seq') AS key, count(*)::int AS n FROM analytics_event WHERE type = 'message.sent' AND user_id = ANY ($1::uuid[]) GROUP BY 1`,
          who,
        );
        return perKey('analytics message.sent', stored.map((r) => r.key), facts);
      },
    },
    {
      name: 'analytics: one like.created fact per like',
      run: async () => {
        const likes = await rows<{ key: string }>(matching, `SELECT swiper_id::text || '>' || target_id::text AS key FROM swipe WHERE liked AND swiper_id = ANY ($1::uuid[])`, who);
        const facts = await rows<{ key: string; n: number }>(
          admin,
          `SELECT user_id::text || '>' || other_user_id::text AS key, count(*)::int AS n FROM analytics_event WHERE type = 'like.created' AND user_id = ANY ($1::uuid[]) GROUP BY 1`,
          who,
        );
        return perKey('analytics like.created', likes.map((r) => r.key), facts);
      },
    },
    {
      name: 'analytics: one call.ended fact per ended call',
      run: async () => {
        const ended = await rows<{ id: string }>(call, `SELECT id::text AS id FROM call_record WHERE status <> 'in_progress' AND (caller_id = ANY ($1::uuid[]) OR recipient_id = ANY ($1::uuid[]))`, who);
        const facts = await rows<{ key: string; n: number }>(
          admin,
          `SELECT subject_id AS key, count(*)::int AS n FROM analytics_event WHERE type = 'call.ended' AND (user_id = ANY ($1::uuid[]) OR other_user_id = ANY ($1::uuid[])) GROUP BY subject_id`,
          who,
        );
        return perKey('analytics call.ended', ended.map((r) => r.id), facts);
      },
    },
  ];
}

/** Messages: every message handed to a sender's ChatSync and acknowledged is stored exactly once; seq 1..n per conversation. */
export function messageChecks(chatDb: string, sent: () => SentMessage[], members: readonly string[]): Check[] {
  return [
    {
      name: 'chat: every acknowledged send stored exactly once, seq without gaps per conversation',
      run: async () => {
        const problems: string[] = [];
        const stored = await rows<{ a: string; b: string; sender: string; content: string; seq: number; client_id: string | null }>(
          chatDb,
          `SELECT c.member_a AS a, c.member_b AS b, m.sender_id AS sender, m.content, m.seq, m.client_id
             FROM message m JOIN conversation c ON c.id = m.conversation_id
            WHERE c.member_a = ANY ($1::uuid[]) OR c.member_b = ANY ($1::uuid[])
            ORDER BY c.id, m.seq`,
          [members],
        );
        const byConversation = new Map<string, number[]>();
        const count = new Map<string, number>();
        for (const r of stored) {
          const key = `${r.a}:${r.b}`;
          byConversation.set(key, [...(byConversation.get(key) ?? []), r.seq]);
          const c = `${r.sender}|${r.content}`;
          count.set(c, (count.get(c) ?? 0) + 1);
        }
        for (const [key, seqs] of byConversation) {
          seqs.forEach((seq, i) => {
            if (seq !== i + 1) problems.push(`conversation ${key}: seq ${seq} at position ${i + 1}`);
          });
        }
        for (const m of sent()) {
          const n = count.get(`${m.senderId}|${m.content}`) ?? 0;
          if (n !== 1) problems.push(`message ${m.content} of ${m.senderId} stored ${n} times`);
          const [a, b] = ordered(...m.conversationOf);
          if (!byConversation.has(`${a}:${b}`)) problems.push(`message ${m.content}: no conversation of its pair holds messages`);
        }
        const expected = new Set(sent().map((m) => `${m.senderId}|${m.content}`));
        for (const key of count.keys()) if (!expected.has(key)) problems.push(`stored message nobody sent: ${key}`);
        return problems.slice(0, 50);
      },
    },
  ];
}

export interface CheckResult {
  name: string;
  problems: string[];
  /** How long the check took to hold (consumers catching up), ms. */
  heldAfterMs: number | null;
}

/** Runs every check until it holds or `timeoutMs` has passed since the first; reports each. */
export async function settleChecks(checks: Check[], timeoutMs: number): Promise<CheckResult[]> {
  const started = Date.now();
  const results: CheckResult[] = [];
  for (const check of checks) {
    let problems = await check.run();
    while (problems.length && Date.now() - started < timeoutMs) {
      await new Promise((r) => setTimeout(r, 500));
      problems = await check.run();
    }
    results.push({ name: check.name, problems, heldAfterMs: problems.length ? null : Date.now() - started });
  }
  return results;
}
