import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  CHAT_CLIENT_ID_PATTERN,
  CHAT_MESSAGE_MAX_LENGTH,
  messageLength,
  normalizeMessageContent,
} from '@mate/contracts';
import { ENDED_MATCH_SQL, PAIR_EVENT_SQL } from '@mate/server-kit';
import { query, ROOT, run, runModule, runSeeder, type Run } from './helpers';
import {
  backfillCalls,
  backfillPairs,
  callMatchesVersusMatches,
  dropPair,
  HISTORY_MEMBERS,
  pairsVersusMatches,
  SEED,
  seedArgs,
  seedHistory,
  type Pair,
} from './seed-setup';
import { CallService } from './service-processes';

/*
 * What the seeder writes of the swipe history (seed-setup.ts seedHistory) into the services that
 * would have learnt of its matches from match.created: chat-service's conversations, safety-service's
 * pairs and call-service's matches, the switches that leave each alone, and the backfills of
 * hook.mjs and demo.mjs for an installation seeded before.
 */

describe('npm run seed: the swipe history in chat-, safety- and call-service', () => {
  const COUNT = HISTORY_MEMBERS;
  let h: Pair;
  let seeded: Run;

  beforeAll(async () => {
    ({ h, seeded } = await seedHistory('services'));
  });

  afterAll(async () => {
    if (h) await Promise.all(dropPair(h));
  });

  describe("the matches' conversations in chat-service's database", () => {
    interface ConversationRow {
      id: string;
      member_a: string;
      member_b: string;
      match_id: string;
      matched_at: Date;
      closed_at: Date | null;
      last_seq: number;
      last_message_id: string | null;
      last_message_at: Date | null;
      a_read_seq: number;
      b_read_seq: number;
      a_unread: number;
      b_unread: number;
    }
    interface MessageRow {
      id: string;
      conversation_id: string;
      seq: number;
      sender_id: string;
      recipient_id: string;
      client_id: string;
      content: string;
      created_at: Date;
    }
    let conversations: ConversationRow[];
    let messages: Map<string, MessageRow[]>;

    beforeAll(async () => {
      conversations = await query<ConversationRow>(h.chat.url, 'SELECT * FROM conversation ORDER BY id');
      messages = new Map(conversations.map((c) => [c.id, []]));
      for (const m of await query<MessageRow>(h.chat.url, 'SELECT * FROM message ORDER BY conversation_id, seq')) {
        messages.get(m.conversation_id)?.push(m);
      }
    });

    it('opens exactly one conversation per seeded match (named by the match, dated with it), and says how many', async () => {
      const matches = await query<{ id: string; user_a: string; user_b: string; created_at: Date }>(
        h.matching.url,
        'SELECT id, user_a, user_b, created_at FROM match ORDER BY id',
      );
      expect(matches.length).toBeGreaterThan(20);
      expect(conversations.map((c) => [c.id, c.match_id, c.member_a, c.member_b, c.matched_at, c.closed_at])).toEqual(
        matches.map((m) => [m.id, m.id, m.user_a, m.user_b, m.created_at, null]),
      );
      const total = [...messages.values()].reduce((n, list) => n + list.length, 0);
      const exchanges = conversations.filter((c) => c.last_seq > 0).length;
      const unread = conversations.filter((c) => c.a_unread + c.b_unread > 0).length;
      expect(seeded.stdout).toContain(
        `[seed] conversations: ${conversations.length} (one per match), ${exchanges} with messages (${total} messages), ${unread} with unread messages`,
      );
    });

    it('gives a realistic share an exchange of 3–25 messages, numbered 1..n between the two, after the match and before now', () => {
      const withMessages = conversations.filter((c) => c.last_seq > 0);
      expect(withMessages.length / conversations.length).toBeGreaterThan(0.4);
      expect(withMessages.length / conversations.length).toBeLessThan(0.8);
      const now = new Date();
      let doubleTexts = 0;
      for (const c of conversations) {
        const list = messages.get(c.id) ?? [];
        expect(list.map((m) => m.seq)).toEqual(Array.from({ length: c.last_seq }, (_, i) => i + 1));
        if (c.last_seq === 0) {
          expect([c.last_message_id, c.last_message_at, c.a_read_seq, c.b_read_seq, c.a_unread, c.b_unread]).toEqual([null, null, 0, 0, 0, 0]);
          continue;
        }
        expect(c.last_seq).toBeGreaterThanOrEqual(3);
        expect(c.last_seq).toBeLessThanOrEqual(25);
        const last = list[list.length - 1];
        expect([c.last_message_id, c.last_message_at]).toEqual([last.id, last.created_at]);
        list.forEach((m, i) => {
          expect([m.sender_id, m.recipient_id].sort()).toEqual([c.member_a, c.member_b]);
          expect(m.content).toBe(normalizeMessageContent(m.content));
          expect(messageLength(m.content)).toBeGreaterThan(0);
          expect(messageLength(m.content)).toBeLessThanOrEqual(CHAT_MESSAGE_MAX_LENGTH);
          expect(m.client_id).toMatch(CHAT_CLIENT_ID_PATTERN);
          expect(m.created_at.getTime()).toBeGreaterThan(c.matched_at.getTime());
          expect(m.created_at.getTime()).toBeLessThanOrEqual(now.getTime());
          if (i > 0) {
            expect(m.created_at.getTime()).toBeGreaterThan(list[i - 1].created_at.getTime());
            if (m.sender_id === list[i - 1].sender_id) doubleTexts++;
          }
        });
        // Both members write: it is an exchange.
        expect(new Set(list.map((m) => m.sender_id)).size).toBe(2);
      }
      expect(doubleTexts).toBeGreaterThan(0);
      const all = [...messages.values()].flat();
      expect(new Set(all.map((m) => `${m.sender_id}|${m.client_id}`)).size).toBe(all.length);
      // Varied openers: the exchanges do not all start alike.
      const openers = withMessages.map((c) => messages.get(c.id)?.[0].content);
      expect(new Set(openers).size).toBeGreaterThan(withMessages.length / 3);
    });

    it("keeps each side's unread counter equal to the messages to it after its read seq: mostly read, some unread", () => {
      let unread = 0;
      for (const c of conversations) {
        const list = messages.get(c.id) ?? [];
        for (const [member, readSeq, counter] of [
          [c.member_a, c.a_read_seq, c.a_unread],
          [c.member_b, c.b_read_seq, c.b_unread],
        ] as const) {
          expect(readSeq).toBeGreaterThanOrEqual(0);
          expect(readSeq).toBeLessThanOrEqual(c.last_seq);
          expect(counter).toBe(list.filter((m) => m.recipient_id === member && m.seq > readSeq).length);
          // A member who wrote a message had read everything before it.
          const ownLast = list.filter((m) => m.sender_id === member).pop();
          if (ownLast) expect(readSeq).toBeGreaterThanOrEqual(ownLast.seq);
        }
        if (c.a_unread + c.b_unread > 0) {
          unread++;
          // Only the last writer's trailing messages are unread, by the other member.
          expect(c.a_unread === 0 || c.b_unread === 0).toBe(true);
          expect(list[list.length - 1].recipient_id).toBe(c.a_unread > 0 ? c.member_a : c.member_b);
        }
      }
      const exchanges = conversations.filter((c) => c.last_seq > 0).length;
      expect(unread).toBeGreaterThan(0);
      expect(unread).toBeLessThan(exchanges / 2);
    });

    it('is the conversations of the seed (conversations.mjs), whatever the batch size', () => {
      const expected = runModule<{ id: string; seq: number; senderId: string; clientId: string; content: string }[]>(`
        import { memberAt } from '$LIB/population.mjs';
        import { resolvedCities } from '$LIB/cities.mjs';
        import { swipeHistory } from '$LIB/history.mjs';
        import { seedConversations } from '$LIB/conversations.mjs';
        import { HiddenTastes } from '$LIB/taste.cjs';
        const seed = ${JSON.stringify(SEED)};
        const cities = resolvedCities();
        const now = Date.now();
        const members = [];
        for (let n = 1; n <= ${COUNT}; n++) members.push(memberAt(seed, n, { cities, now }));
        const { matches } = swipeHistory(seed, members, { tastes: new HiddenTastes(seed), now });
        const conversations = seedConversations(seed, matches, new Map(members.map((m) => [m.userId, m])), { now });
        process.stdout.write(JSON.stringify(conversations.flatMap((c) =>
          c.messages.map((m) => ({ id: c.id, seq: m.seq, senderId: m.senderId, clientId: m.clientId, content: m.content })))));
      `);
      const key = (m: { id: string; seq: number }) => `${m.id}|${String(m.seq).padStart(3, '0')}`;
      const stored = [...messages.values()]
        .flat()
        .map((m) => ({ id: m.conversation_id, seq: m.seq, senderId: m.sender_id, clientId: m.client_id, content: m.content }));
      expect(expected.length).toBeGreaterThan(0);
      expect([...expected].sort((x, y) => (key(x) < key(y) ? -1 : 1))).toEqual(stored);
    });

    it("leaves chat-service's database alone with --no-chats", async () => {
      const nowhere = new URL(h.chat.url);
      nowhere.pathname = '/mate_seed_no_such_database';
      const r = await runSeeder(seedArgs({ ...h, chat: { ...h.chat, url: nowhere.toString() } }, '--members', '30', '--no-chats'));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('[seed] swipe history:');
      expect(r.stdout).not.toContain('conversations:');
      const after = await query<{ n: number }>(h.chat.url, 'SELECT count(*)::int AS n FROM conversation');
      expect(after[0].n).toBe(conversations.length);
      // safety's pairs do not depend on the conversations: the new matches have theirs.
      expect(r.stdout).toContain('[seed] safety pairs:');
      expect(await pairsVersusMatches(h)).toEqual({ missing: [], extra: [] });
    });
  });

  describe("safety-service's pairs of matches written without match.created", () => {
    const pairIdOf = (m: { user_a: string; user_b: string }) => `${m.user_a}:${m.user_b}`;

    it("leaves safety-service's database alone with --no-safety", async () => {
      const nowhere = new URL(h.safety.url);
      nowhere.pathname = '/mate_seed_no_such_database';
      const before = await query<{ n: number }>(h.safety.url, 'SELECT count(*)::int AS n FROM pair');
      const r = await runSeeder(seedArgs({ ...h, safety: { ...h.safety, url: nowhere.toString() } }, '--members', '30', '--no-safety'));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('[seed] swipe history:');
      expect(r.stdout).not.toContain('safety pairs:');
      expect(await query(h.safety.url, 'SELECT count(*)::int AS n FROM pair')).toEqual(before);
    });

    it('backfills the pairs of an installation seeded before safety knew its matches, never over a block, an unmatch or a newer pair event', async () => {
      // An installation seeded before the seeder wrote pairs: safety knows none of the matches.
      await query(h.safety.url, 'DELETE FROM pair');
      const matches = await query<{ id: string; user_a: string; user_b: string }>(h.matching.url, 'SELECT id, user_a, user_b FROM match ORDER BY id');
      expect(matches.length).toBeGreaterThan(10);
      const [blocked, unmatched, stale, caughtUp] = matches;
      // Pair events safety recorded that matching has not applied yet (its match is still there):
      // a block of a match safety never knew and an unmatch (left without their versions here, so
      // the pair row's own state guards them), a block and unblock (version 2: the version guards).
      await query(h.safety.url, `INSERT INTO pair (pair_id, member_a, member_b, blocked_by) VALUES ($1, $2, $3, ARRAY[$2]::uuid[])`, [
        pairIdOf(blocked),
        blocked.user_a,
        blocked.user_b,
      ]);
      await query(
        h.safety.url,
        `INSERT INTO pair (pair_id, member_a, member_b, ended_match_id, ended_at) VALUES ($1, $2, $3, $4, now())`,
        [pairIdOf(unmatched), unmatched.user_a, unmatched.user_b, unmatched.id],
      );
      for (const m of [stale, caughtUp]) {
        await query(h.safety.url, 'INSERT INTO pair (pair_id, member_a, member_b) VALUES ($1, $2, $3)', [pairIdOf(m), m.user_a, m.user_b]);
      }
      await query(
        h.safety.url,
        `INSERT INTO aggregate_version (aggregate_type, aggregate_id, version) VALUES ('pair', $1, 2), ('pair', $2, 2)`,
        [pairIdOf(stale), pairIdOf(caughtUp)],
      );
      // A match made after matching applied the pair's block and unblock (version 2): it is live.
      await query(h.matching.url, `INSERT INTO applied_version (aggregate_type, aggregate_id, version) VALUES ('pair', $1, 2)`, [
        pairIdOf(caughtUp),
      ]);
      const guarded = await query(h.safety.url, 'SELECT * FROM pair WHERE pair_id = ANY($1) ORDER BY pair_id', [
        [blocked, unmatched, stale].map(pairIdOf),
      ]);

      const first = await backfillPairs(h);
      expect(first.stdout).toContain(`backfilling safety-service's pairs: matching-service holds ${matches.length} match(es), safety-service knows 0`);
      expect(first.result).toEqual({ backfilled: true, written: matches.length - 3 });
      expect(first.stdout).toContain(`safety-service: ${matches.length - 3} pair(s) received their match`);
      expect(await pairsVersusMatches(h)).toEqual({ missing: [blocked.id, unmatched.id, stale.id].sort(), extra: [] });
      expect(await query(h.safety.url, 'SELECT * FROM pair WHERE pair_id = ANY($1) ORDER BY pair_id', [[blocked, unmatched, stale].map(pairIdOf)])).toEqual(
        guarded,
      );

      // Again (the counts still differ): nothing more is written.
      expect((await backfillPairs(h)).result).toEqual({ backfilled: true, written: 0 });
      // Once matching applied those pair events (their matches deleted), a start only counts.
      await query(h.matching.url, 'DELETE FROM match WHERE id = ANY($1::uuid[])', [[blocked.id, unmatched.id, stale.id]]);
      const quiet = await backfillPairs(h);
      expect(quiet.result).toEqual({ backfilled: false, written: 0 });
      expect(quiet.stdout).not.toContain('[mate]');
      expect(await pairsVersusMatches(h)).toEqual({ missing: [], extra: [] });
    });

    it("writes the demo member's past matches into safety-service's pairs too (tools/scripts/lib/demo.mjs demoChats)", async () => {
      const demo = randomUUID();
      const partners = Array.from({ length: 5 }, (_, i) => ({ id: randomUUID(), name: `Partner${i}`, interests: ['Travel'], location: 'New York, NY' }));
      // One of them was blocked and unblocked by her once (pair version 2 in both services).
      const [a, b] = [demo, partners[0].id].sort();
      await query(h.safety.url, 'INSERT INTO pair (pair_id, member_a, member_b) VALUES ($1, $2, $3)', [`${a}:${b}`, a, b]);
      await query(h.safety.url, `INSERT INTO aggregate_version (aggregate_type, aggregate_id, version) VALUES ('pair', $1, 2)`, [`${a}:${b}`]);
      await query(h.matching.url, `INSERT INTO applied_version (aggregate_type, aggregate_id, version) VALUES ('pair', $1, 2)`, [`${a}:${b}`]);
      const demoModule = `file://${path.join(ROOT, 'tools/scripts/lib/demo.mjs')}`;
      const urls = { matchingDbUrl: h.matching.url, chatDbUrl: h.chat.url, safetyDbUrl: h.safety.url, adminDbUrl: h.admin.url };
      const source = `import { demoChats } from '${demoModule}';
        const made = await demoChats(${JSON.stringify(urls)}, { userId: ${JSON.stringify(demo)} }, ${JSON.stringify(partners)});
        process.stdout.write(JSON.stringify(made));`;
      const r = await run(process.execPath, ['--input-type=module', '-e', source]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toBe(5);

      const made = await query<{ id: string; user_a: string; user_b: string; created_at: Date }>(
        h.matching.url,
        'SELECT id, user_a, user_b, created_at FROM match WHERE user_a = $1 OR user_b = $1 ORDER BY id',
        [demo],
      );
      expect(made).toHaveLength(5);
      const pairs = await query<{ pair_id: string; match_id: string; matched_at: Date; blocked_by: string[] }>(
        h.safety.url,
        'SELECT pair_id, match_id, matched_at, blocked_by FROM pair WHERE member_a = $1 OR member_b = $1 ORDER BY match_id',
        [demo],
      );
      expect(pairs).toEqual(made.map((m) => ({ pair_id: pairIdOf(m), match_id: m.id, matched_at: m.created_at, blocked_by: [] })));
      const conversations = await query<{ match_id: string }>(
        h.chat.url,
        'SELECT match_id FROM conversation WHERE member_a = $1 OR member_b = $1 ORDER BY match_id',
        [demo],
      );
      expect(conversations.map((c) => c.match_id)).toEqual(made.map((m) => m.id));
      expect(await pairsVersusMatches(h)).toEqual({ missing: [], extra: [] });
      // admin-service's screens count matches from its event store (issue 25): hers are there, once
      // each, with both likes of each match and her conversations' messages.
      const facts = await query<{ type: string; subject_id: string | null }>(
        h.admin.url,
        `SELECT type, subject_id FROM analytics_event WHERE user_id = $1 OR other_user_id = $1 ORDER BY type, subject_id`,
        [demo],
      );
      expect(facts.filter((f) => f.type === 'match.created').map((f) => f.subject_id)).toEqual(made.map((m) => m.id));
      expect(facts.filter((f) => f.type === 'like.created')).toHaveLength(10);
      const sent = await query<{ n: number }>(
        h.chat.url,
        'SELECT count(*)::int AS n FROM message m JOIN conversation c ON c.id = m.conversation_id WHERE c.member_a = $1 OR c.member_b = $1',
        [demo],
      );
      expect(facts.filter((f) => f.type === 'message.sent')).toHaveLength(sent[0].n);
      expect(new Set(facts.map((f) => f.type))).toEqual(new Set(['like.created', 'match.created', 'message.sent']));
    });
  });

  describe("call-service's matches of matches written without match.created", () => {
    const pairIdOf = (m: { user_a: string; user_b: string }) => `${m.user_a}:${m.user_b}`;
    /** The built call-service on the installation's call database (behind the built gateway): who may call is what it answers a call. */
    let calls: CallService;
    const callable = (x: string, y: string) => calls.callable(x, y);

    beforeAll(async () => {
      calls = await CallService.start(h);
    });

    afterAll(async () => {
      await calls?.stop();
    });
    /** The kit's pair projection's statements for a pair event (as call-service applies one; ADR 0030). */
    async function pairEvent(m: { user_a: string; user_b: string }, blocked: boolean, version: number, endedMatchId?: string) {
      await query(h.call.url, PAIR_EVENT_SQL, [m.user_a, m.user_b, blocked ? [m.user_a] : [], new Date(), version]);
      if (endedMatchId) await query(h.call.url, ENDED_MATCH_SQL, [endedMatchId, m.user_a, m.user_b]);
    }

    it("leaves call-service's database alone with --no-call", async () => {
      const nowhere = new URL(h.call.url);
      nowhere.pathname = '/mate_seed_no_such_database';
      const before = await query<{ n: number }>(h.call.url, 'SELECT count(*)::int AS n FROM call_match');
      const r = await runSeeder(seedArgs({ ...h, call: { ...h.call, url: nowhere.toString() } }, '--members', '30', '--no-call'));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('[seed] swipe history:');
      expect(r.stdout).not.toContain('call-service matches:');
      expect(await query(h.call.url, 'SELECT count(*)::int AS n FROM call_match')).toEqual(before);
    });

    it('backfills the matches of an installation seeded before call-service knew them, idempotently, never making a blocked, unmatched or stale pair callable', async () => {
      // An installation seeded before the seeder wrote call-service's matches: it knows none.
      await query(h.call.url, 'DELETE FROM call_match');
      const matches = await query<{ id: string; user_a: string; user_b: string }>(
        h.matching.url,
        `SELECT id, user_a, user_b FROM match m
          WHERE NOT EXISTS (SELECT 1 FROM applied_version v WHERE v.aggregate_type = 'pair' AND v.aggregate_id = m.user_a::text || ':' || m.user_b::text)
          ORDER BY id`,
      );
      expect(matches.length).toBeGreaterThan(10);
      const [blocked, unmatched, stale, caughtUp] = matches;
      // Pair events call-service applied that matching has not yet (its match is still there): a
      // block, an unmatch (naming the match as ended), a block and unblock (version 2).
      await pairEvent(blocked, true, 1, blocked.id);
      await pairEvent(unmatched, false, 1, unmatched.id);
      await pairEvent(stale, true, 1);
      await pairEvent(stale, false, 2);
      // A match made after matching applied the pair's block and unblock (version 2): it is live.
      await pairEvent(caughtUp, true, 1);
      await pairEvent(caughtUp, false, 2);
      await query(h.matching.url, `INSERT INTO applied_version (aggregate_type, aggregate_id, version) VALUES ('pair', $1, 2)`, [
        pairIdOf(caughtUp),
      ]);
      const held = (await query<{ n: number }>(h.matching.url, 'SELECT count(*)::int AS n FROM match'))[0].n;

      const first = await backfillCalls(h);
      expect(first.stdout).toContain(`backfilling call-service's matches: matching-service holds ${held} match(es), call-service knows 0`);
      expect(first.result).toEqual({ backfilled: true, written: held });
      expect(first.stdout).toContain(`call-service: ${held} match(es) received`);
      expect(await callMatchesVersusMatches(h)).toEqual({ missing: [], extra: [] });
      // call-service's rule decides: the pair events it applied keep those pairs from calling.
      for (const m of [blocked, unmatched, stale]) expect({ m: m.id, callable: await callable(m.user_a, m.user_b) }).toEqual({ m: m.id, callable: false });
      expect(await callable(caughtUp.user_a, caughtUp.user_b)).toBe(true);
      expect(await callable(matches[4].user_a, matches[4].user_b)).toBe(true);

      // Again (the counts still differ while matching has not applied those events): nothing is written.
      const rows = await query(h.call.url, 'SELECT * FROM call_match ORDER BY match_id');
      expect((await backfillCalls(h)).result).toEqual({ backfilled: true, written: 0 });
      expect(await query(h.call.url, 'SELECT * FROM call_match ORDER BY match_id')).toEqual(rows);
      // Once matching applied them (their matches deleted), a start only counts, and they stay not callable.
      await query(h.matching.url, 'DELETE FROM match WHERE id = ANY($1::uuid[])', [[blocked.id, unmatched.id, stale.id]]);
      const quiet = await backfillCalls(h);
      expect(quiet.result).toEqual({ backfilled: false, written: 0 });
      expect(quiet.stdout).not.toContain('[mate]');
      expect(await callMatchesVersusMatches(h)).toEqual({ missing: [], extra: [blocked.id, unmatched.id, stale.id].sort() });
      for (const m of [blocked, unmatched, stale]) expect(await callable(m.user_a, m.user_b)).toBe(false);
    });

    it("writes the demo member's past matches into call-service too (demoChats); her blocked match stays not callable", async () => {
      const demo = randomUUID();
      const partners = Array.from({ length: 6 }, (_, i) => ({ id: randomUUID(), name: `Caller${i}`, interests: ['Travel'], location: 'New York, NY' }));
      // One of them was blocked and unblocked by her once (pair version 2 in both services).
      const [a, b] = [demo, partners[0].id].sort();
      await pairEvent({ user_a: a, user_b: b }, true, 1);
      await pairEvent({ user_a: a, user_b: b }, false, 2);
      await query(h.matching.url, `INSERT INTO applied_version (aggregate_type, aggregate_id, version) VALUES ('pair', $1, 2)`, [`${a}:${b}`]);
      const demoModule = `file://${path.join(ROOT, 'tools/scripts/lib/demo.mjs')}`;
      const urls = { matchingDbUrl: h.matching.url, chatDbUrl: h.chat.url, safetyDbUrl: h.safety.url, callDbUrl: h.call.url };
      const source = `import { demoChats } from '${demoModule}';
        const made = await demoChats(${JSON.stringify(urls)}, { userId: ${JSON.stringify(demo)} }, ${JSON.stringify(partners.slice(0, 5))});
        process.stdout.write(JSON.stringify(made));`;
      const r = await run(process.execPath, ['--input-type=module', '-e', source]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toBe(5);
      const made = await query<{ id: string; user_a: string; user_b: string; created_at: Date }>(
        h.matching.url,
        'SELECT id, user_a, user_b, created_at FROM match WHERE user_a = $1 OR user_b = $1 ORDER BY id',
        [demo],
      );
      expect(made).toHaveLength(5);
      const known = await query<{ match_id: string; matched_at: Date; pair_version: number }>(
        h.call.url,
        'SELECT match_id, matched_at, pair_version FROM call_match WHERE member_a = $1 OR member_b = $1 ORDER BY match_id',
        [demo],
      );
      expect(known).toEqual(
        made.map((m) => ({ match_id: m.id, matched_at: m.created_at, pair_version: pairIdOf(m) === `${a}:${b}` ? 2 : 0 })),
      );

      // Her call history (DEMO_CALLS): six past calls with her matches, each after its match was
      // made, in the shape call-service records (only completed calls were answered and last).
      const history = await query<{ caller_id: string; recipient_id: string; status: string; started_at: Date; answered_at: Date | null; ended_at: Date; duration_seconds: number }>(
        h.call.url,
        'SELECT caller_id, recipient_id, status, started_at, answered_at, ended_at, duration_seconds FROM call_record WHERE caller_id = $1 OR recipient_id = $1 ORDER BY started_at DESC',
        [demo],
      );
      expect(history.map((c) => c.status)).toEqual(['completed', 'missed', 'completed', 'rejected', 'completed', 'failed']);
      const matchedAt = new Map(made.map((m) => [m.user_a === demo ? m.user_b : m.user_a, m.created_at.getTime()]));
      for (const c of history) {
        const partner = c.caller_id === demo ? c.recipient_id : c.caller_id;
        expect(c.started_at.getTime()).toBeGreaterThan(matchedAt.get(partner) ?? Infinity);
        expect(c.duration_seconds > 0).toBe(c.status === 'completed');
        expect(c.answered_at !== null).toBe(c.status === 'completed');
        expect(c.ended_at.getTime()).toBeGreaterThanOrEqual(c.started_at.getTime());
      }
      // She placed some and received some.
      expect(history.filter((c) => c.caller_id === demo)).toHaveLength(3);
      expect(history.filter((c) => c.recipient_id === demo)).toHaveLength(3);
      // Each of those matches may call (asked after reading her history: a call asked is one recorded).
      for (const p of partners.slice(0, 5)) expect(await callable(demo, p.id)).toBe(true);

      // Her blocked match (demoBlock): written like the others, then blocked through the API, so
      // call-service applies user.blocked naming it as ended (matching deletes it later).
      const blockedSource = `import { demoChats } from '${demoModule}';
        await demoChats(${JSON.stringify(urls)}, { userId: ${JSON.stringify(demo)} }, ${JSON.stringify([partners[5]])}, [{ matchedAgo: 9 * 86400000, count: 5, lastAgo: 8 * 86400000, firstWriter: 'her' }]);`;
      const rb = await run(process.execPath, ['--input-type=module', '-e', blockedSource]);
      expect(rb.stderr).toBe('');
      expect(rb.code).toBe(0);
      const [x, y] = [demo, partners[5].id].sort();
      const [blockedMatch] = await query<{ id: string }>(h.matching.url, 'SELECT id FROM match WHERE user_a = $1 AND user_b = $2', [x, y]);
      expect(await callable(demo, partners[5].id)).toBe(true);
      await pairEvent({ user_a: x, user_b: y }, true, 1, blockedMatch.id);
      expect(await callable(demo, partners[5].id)).toBe(false);
      // A start before matching applied the block (its match still there) does not make it callable,
      await backfillCalls(h);
      expect(await callable(demo, partners[5].id)).toBe(false);
      // nor one after.
      await query(h.matching.url, 'DELETE FROM match WHERE id = $1', [blockedMatch.id]);
      await backfillCalls(h);
      expect(await callable(demo, partners[5].id)).toBe(false);
    });
  });
});
