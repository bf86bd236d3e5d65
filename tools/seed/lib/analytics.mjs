// The analytics history (issue 13): admin-service's event store (`analytics_event` in mate_admin)
// gets the facts of the seeded population, as if its events had been consumed all along, and a
// believable 90 days of daily activity around them, so the admin app's analytics open on
// real-looking charts. See ../README.md, "Analytics history".
import { Rng, uuidFrom } from './random.mjs';

/** Days of daily activity written, today included (the retention cohorts and churn windows read 90). */
export const ANALYTICS_HISTORY_DAYS = 90;
const DAY_MS = 24 * 3600 * 1000;
const HOUR_MS = 3600 * 1000;
/** Facts per INSERT (eight arrays each). */
const ROWS_PER_INSERT = 5_000;

/** Report reasons (contracts' REPORT_REASONS) and how often each is given. */
const REASON_WEIGHTS = [
  ['fake_profile', 25],
  ['harassment', 22],
  ['inappropriate_content', 20],
  ['spam', 18],
  ['other', 11],
  ['underage', 4],
];
/** Chance that a member reported somebody they met in the 90 days. */
const REPORTER_SHARE = 0.03;
/** Chance that a member who signed up in the 90 days has a sign-up that never became a member (below). */
const DROPOUT_SHARE = 0.35;

const dayOf = (time) => new Date(time).toISOString().slice(0, 10);
const startOfDay = (time) => Math.floor(time / DAY_MS) * DAY_MS;

/**
 * @typedef {object} AnalyticsFact one row of `analytics_event`
 * @property {string} id a fresh id (derived from the seed: never an id of a real event)
 * @property {string} type the event name
 * @property {string | null} userId
 * @property {string | null} otherUserId
 * @property {string | null} subjectId
 * @property {string} day YYYY-MM-DD (UTC)
 * @property {Date} at
 * @property {Record<string, unknown>} props
 */

/**
 * @param {string} seed
 * @param {string} type
 * @param {unknown[]} key what makes the fact one of a kind (with its type)
 * @param {{ userId?: string | null, otherUserId?: string | null, subjectId?: string | null, at: Date | number, day?: string, props?: Record<string, unknown> }} fields
 * @returns {AnalyticsFact}
 */
function fact(seed, type, key, { userId = null, otherUserId = null, subjectId = null, at, day = dayOf(at), props = {} }) {
  return { id: uuidFrom('analytics', seed, type, ...key), type, userId, otherUserId, subjectId, day, at: new Date(at), props };
}

/** The first day (UTC, as a time) of the history's daily activity. */
export function historyStart(now) {
  return startOfDay(now) - (ANALYTICS_HISTORY_DAYS - 1) * DAY_MS;
}

/**
 * What the services would have told admin-service about a batch of members (memberAt of
 * population.mjs): registration, verification, onboarding (seeded members complete it), each
 * photo uploaded. Plus the sign-ups that never became members: a share of the people who signed
 * up in the 90 days registered, mostly verified, some uploaded a photo, few finished onboarding,
 * and deleted the account again within weeks. Their facts stand under a fresh id, as admin-service
 * keeps a deleted member's facts (pseudonymised), so the user count still equals the accounts
 * auth-service holds while the funnel shows that not everybody completes.
 *
 * @returns {{ facts: AnalyticsFact[], dropouts: { userId: string, createdAt: Date, deletedAt: Date }[] }}
 */
export function memberFacts(seed, members, { now, photos = true }) {
  const start = historyStart(now);
  const facts = [];
  const dropouts = [];
  for (const m of members) {
    const userId = m.userId;
    facts.push(fact(seed, 'user.registered', [userId], { userId, at: m.createdAt }));
    if (m.verifiedAt) facts.push(fact(seed, 'user.verified', [userId], { userId, at: m.verifiedAt }));
    // Seeded members complete onboarding; an account read back (backfill) says whether it did.
    if (m.onboarded !== false && m.updatedAt) {
      facts.push(fact(seed, 'onboarding.completed', [userId], { userId, at: m.updatedAt, props: { skipped: false } }));
    }
    if (photos) {
      for (const p of m.photos) {
        facts.push(fact(seed, 'photo.uploaded', [p.id], { userId, subjectId: p.id, at: p.createdAt }));
      }
    }
    const rng = new Rng('analytics-dropout', seed, m.n);
    if (m.createdAt.getTime() < start || !rng.chance(DROPOUT_SHARE)) continue;
    const createdAt = Math.min(now - HOUR_MS, m.createdAt.getTime() + rng.int(0, 36) * HOUR_MS);
    if (createdAt < start) continue;
    const id = uuidFrom('analytics-dropout', seed, m.n);
    const deletedAt = createdAt + Math.floor(rng.next() * Math.min(21 * DAY_MS, now - createdAt));
    facts.push(fact(seed, 'user.registered', [id], { userId: id, at: createdAt }));
    if (rng.chance(0.8)) facts.push(fact(seed, 'user.verified', [id], { userId: id, at: Math.min(deletedAt, createdAt + rng.int(2, 90) * 60_000) }));
    const photo = rng.chance(0.4);
    if (photo) {
      const photoId = uuidFrom('analytics-dropout-photo', seed, m.n);
      facts.push(fact(seed, 'photo.uploaded', [photoId], { userId: id, subjectId: photoId, at: Math.min(deletedAt, createdAt + 20 * 60_000) }));
    }
    if (photo && rng.chance(0.35)) {
      facts.push(fact(seed, 'onboarding.completed', [id], { userId: id, at: Math.min(deletedAt, createdAt + HOUR_MS), props: { skipped: rng.chance(0.3) } }));
    }
    facts.push(fact(seed, 'user.deleted', [id], { userId: id, at: deletedAt }));
    dropouts.push({ userId: id, createdAt: new Date(createdAt), deletedAt: new Date(deletedAt) });
  }
  return { facts, dropouts };
}

/**
 * The facts of a window's swipe history (history.mjs) and conversations (conversations.mjs):
 * every like (matched on the like that completed a mutual like), pass, match and message, as
 * matching and chat would have published them, whatever their date; calls in a share of the
 * conversations; and, within the 90 days, reports by members of people they met (each resolved by
 * the moderators after a few hours: the past holds no pending report), blocks, and a few
 * suspensions, each lifted again (auth-service holds nobody suspended).
 *
 * @param {string} seed
 * @param {{ swipes: import('./history.mjs').Swipe[], matches: import('./history.mjs').Match[], conversations?: import('./conversations.mjs').SeedConversation[] }} history
 * @param {{ now: number }} options
 * @returns {AnalyticsFact[]}
 */
export function historyFacts(seed, { swipes, matches, conversations = [] }, { now }) {
  const start = historyStart(now);
  const facts = [];
  const matchAt = new Map(matches.map((m) => [`${m.userA}:${m.userB}`, m.at.getTime()]));
  const pairKey = (x, y) => (x < y ? `${x}:${y}` : `${y}:${x}`);
  /** What each member met in the 90 days: the people they swiped on. */
  const met = new Map();
  // The like that completed a mutual like is the later one (of two at the same time, the later swiped).
  const completing = new Set();
  for (let i = swipes.length - 1; i >= 0; i--) {
    const s = swipes[i];
    const pair = pairKey(s.swiperId, s.targetId);
    if (s.liked && matchAt.get(pair) === s.at.getTime() && !matchAt.has(`done:${pair}`)) {
      completing.add(s);
      matchAt.set(`done:${pair}`, 0);
    }
  }
  for (const s of swipes) {
    const key = [s.swiperId, s.targetId];
    if (s.liked) {
      const matched = completing.has(s);
      facts.push(fact(seed, 'like.created', key, { userId: s.swiperId, otherUserId: s.targetId, at: s.at, props: { matched } }));
    } else {
      facts.push(fact(seed, 'pass.created', key, { userId: s.swiperId, otherUserId: s.targetId, at: s.at }));
    }
    if (s.at.getTime() >= start) met.set(s.swiperId, [...(met.get(s.swiperId) ?? []), s]);
  }
  for (const m of matches) {
    facts.push(fact(seed, 'match.created', [m.id], { userId: m.userA, otherUserId: m.userB, subjectId: m.id, at: m.at }));
  }
  for (const c of conversations) {
    for (const msg of c.messages) {
      facts.push(
        fact(seed, 'message.sent', [msg.id], {
          userId: msg.senderId,
          otherUserId: msg.recipientId,
          subjectId: c.id,
          at: msg.at,
          props: { first: msg.seq === 1, seq: msg.seq },
        }),
      );
    }
    facts.push(...callsOf(seed, c, now));
  }
  for (const [reporterId, seen] of [...met.entries()].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
    facts.push(...reportOf(seed, reporterId, seen, now));
  }
  return facts;
}

/** A call in about a third of the exchanges of six messages or more, after the fourth message. */
function callsOf(seed, conversation, now) {
  const rng = new Rng('analytics-call', seed, conversation.id);
  const messages = conversation.messages;
  if (messages.length < 6 || !rng.chance(0.35)) return [];
  const callId = uuidFrom('analytics-call', seed, conversation.id);
  const after = messages[3];
  const status = rng.weighted([['completed', 70], ['missed', 20], ['rejected', 8], ['failed', 2]]);
  const durationSeconds = status === 'completed' ? rng.int(90, 45 * 60) : 0;
  const endedAt = Math.min(now - 60_000, after.at.getTime() + rng.int(10, 600) * 60_000 + durationSeconds * 1000);
  const callee = after.senderId === conversation.memberA ? conversation.memberB : conversation.memberA;
  return [
    fact(seed, 'call.ended', [callId], {
      userId: after.senderId,
      otherUserId: callee,
      subjectId: callId,
      at: endedAt,
      props: { status, durationSeconds },
    }),
  ];
}

/** A member's report of somebody they swiped on, its resolution, maybe a block and a lifted suspension. */
function reportOf(seed, reporterId, seen, now) {
  const rng = new Rng('analytics-report', seed, reporterId);
  if (!rng.chance(REPORTER_SHARE)) return [];
  const swipe = rng.pick(seen);
  const reportedId = swipe.targetId;
  const reportId = uuidFrom('analytics-report', seed, reporterId, reportedId);
  const reason = rng.weighted(REASON_WEIGHTS);
  const reportedAt = Math.min(now - 2 * HOUR_MS, swipe.at.getTime() + rng.int(1, 48 * 60) * 60_000);
  // Moderators answer within hours, sometimes days (never after now: the past holds no pending report).
  const hours = Math.min(Math.exp(rng.normal(Math.log(14), 0.9)), 120);
  const resolvedAt = Math.min(now - 60_000, reportedAt + hours * HOUR_MS);
  const status = rng.chance(0.6) ? 'reviewed' : 'dismissed';
  const pair = { userId: reporterId, otherUserId: reportedId, subjectId: reportId };
  const facts = [
    fact(seed, 'report.created', [reportId], { ...pair, at: reportedAt, props: { reason } }),
    fact(seed, 'report.resolved', [reportId], {
      ...pair,
      at: resolvedAt,
      props: { reason, status, reportedAt: new Date(reportedAt).toISOString() },
    }),
  ];
  if ((reason === 'harassment' || reason === 'inappropriate_content' || reason === 'spam') && rng.chance(0.7)) {
    facts.push(fact(seed, 'user.blocked', [reporterId, reportedId], { userId: reporterId, otherUserId: reportedId, at: reportedAt + 60_000 }));
  }
  if (status === 'reviewed' && reason !== 'other' && rng.chance(0.3)) {
    const suspendedAt = resolvedAt + rng.int(1, 60) * 60_000;
    const liftedAt = suspendedAt + rng.int(2, 14) * DAY_MS;
    if (liftedAt < now) {
      facts.push(fact(seed, 'user.suspended', [reportId], { userId: reportedId, at: suspendedAt }));
      facts.push(fact(seed, 'user.unsuspended', [reportId], { userId: reportedId, at: liftedAt }));
    }
  }
  return facts;
}

/**
 * One `member.active` per member and UTC day they used the app in the 90 days: always on their
 * sign-up day, then with a chance that starts high and settles (new members come back often,
 * then less), scaled by how engaged the member is, a little higher at weekends. Many members who
 * joined before the 90 days no longer use the app, some lapse during them, and so do a good part
 * of the new ones after a week or two (retention and churn). A day a member wrote, called or
 * reported is always an active day (`busyDays`: user id → set of YYYY-MM-DD), so activity agrees
 * with those facts.
 *
 * @param {{ userId: string, createdAt: Date, dropout?: boolean, deletedAt?: Date }[]} members
 * @param {Map<string, Set<string>>} busyDays
 * @returns {AnalyticsFact[]}
 */
export function activityFacts(seed, members, busyDays, { now }) {
  const start = historyStart(now);
  const today = startOfDay(now);
  const facts = [];
  for (const m of members) {
    const rng = new Rng('analytics-activity', seed, m.userId);
    const signup = startOfDay(m.createdAt.getTime());
    const engagement = m.dropout ? 0.3 : 0.2 + 0.8 * rng.next() ** 1.5;
    let lapse = Infinity;
    if (m.dropout && m.deletedAt) lapse = startOfDay(m.deletedAt.getTime());
    else if (signup < start) {
      if (rng.chance(0.6)) lapse = start - DAY_MS;
      else if (rng.chance(0.25)) lapse = start + rng.int(0, ANALYTICS_HISTORY_DAYS - 1) * DAY_MS;
    } else if (rng.chance(0.4)) lapse = signup + Math.floor(-Math.log(1 - rng.next()) * 12) * DAY_MS;
    const busy = busyDays.get(m.userId);
    for (let d = Math.max(signup, start); d <= today; d += DAY_MS) {
      const day = dayOf(d);
      const since = (d - signup) / DAY_MS;
      const weekend = [0, 6].includes(new Date(d).getUTCDay()) ? 1.15 : 1;
      const chance = d === signup ? 1 : d > lapse ? 0 : engagement * (0.35 + 0.55 * Math.exp(-since / 7)) * weekend;
      const draw = rng.next();
      if (!(busy?.has(day) || draw < chance)) continue;
      const at = Math.max(d, Math.min(now - 1000, d + rng.int(7 * 60, 23 * 60) * 60_000));
      facts.push(fact(seed, 'member.active', [m.userId, day], { userId: m.userId, at, day }));
    }
  }
  return facts;
}

/**
 * The days each member wrote a message, called or reported somebody in the facts. Swipes are left
 * out: the seeded history spreads a member's few swipes over their whole membership, and making
 * each of those days active would make nearly every member active in the last 30 days.
 */
export function busyDaysOf(facts) {
  const busy = new Map();
  for (const f of facts) {
    if (!f.userId || !['message.sent', 'call.ended', 'report.created', 'user.blocked'].includes(f.type)) continue;
    if (!busy.has(f.userId)) busy.set(f.userId, new Set());
    busy.get(f.userId).add(f.day);
  }
  return busy;
}

/** Writes facts into admin-service's `analytics_event` (a fact already there is left as it is). */
export async function insertAnalyticsFacts(adminDb, facts) {
  for (let i = 0; i < facts.length; i += ROWS_PER_INSERT) {
    const slice = facts.slice(i, i + ROWS_PER_INSERT);
    await adminDb.query(
      `INSERT INTO analytics_event (id, type, user_id, other_user_id, subject_id, day, occurred_at, props)
       SELECT id, type, user_id, other_user_id, subject_id, day, occurred_at, props::jsonb
         FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::text[], $6::date[], $7::timestamptz[], $8::text[])
           AS f(id, type, user_id, other_user_id, subject_id, day, occurred_at, props)
       ON CONFLICT (id) DO NOTHING`,
      [
        slice.map((f) => f.id),
        slice.map((f) => f.type),
        slice.map((f) => f.userId),
        slice.map((f) => f.otherUserId),
        slice.map((f) => f.subjectId),
        slice.map((f) => f.day),
        slice.map((f) => f.at.toISOString()),
        slice.map((f) => JSON.stringify(f.props)),
      ],
    );
  }
}

/** Accounts above which the backfill below does nothing (it reads whole tables into memory). */
const BACKFILL_MAX_ACCOUNTS = 100_000;

/**
 * The analytics history of an installation seeded before the seeder wrote one (the seeder's
 * `--if-empty` then leaves it alone): when admin-service's store knows fewer members than
 * auth-service holds accounts (two counts, the whole cost of a start with nothing to do), the
 * history is made from what the databases hold — accounts (auth), onboarding and photos
 * (profile), swipes and matches (matching), messages (chat) — exactly as the seeder makes it
 * from the members it generates, in one transaction. A fact already there is left alone.
 *
 * options: { adminDbUrl, authDbUrl, profileDbUrl, matchingDbUrl?, chatDbUrl?, seed?, now? }.
 * Resolves { backfilled, written }; a failure is reported, never fatal.
 */
export async function backfillAnalyticsHistory({ adminDbUrl, authDbUrl, profileDbUrl, matchingDbUrl, chatDbUrl, seed = '42', now = Date.now() }) {
  const say = (line) => process.stdout.write(`[mate] ${line}\n`);
  if (!adminDbUrl || !authDbUrl || !profileDbUrl) return { backfilled: false, written: 0 };
  const { default: pg } = await import('pg');
  /** @type {import('pg').Client[]} */
  const clients = [];
  const open = async (url) => {
    const client = new pg.Client({ connectionString: url, application_name: 'mate-backfill' });
    clients.push(client);
    await client.connect();
    return client;
  };
  const hasTable = async (db, table) => (await db.query('SELECT to_regclass($1) IS NOT NULL AS present', [table])).rows[0].present;
  try {
    const admin = await open(adminDbUrl);
    const auth = await open(authDbUrl);
    if (!(await hasTable(admin, 'analytics_event'))) return { backfilled: false, written: 0 };
    const accounts = (await auth.query('SELECT count(*)::int AS n FROM users')).rows[0].n;
    const known = (
      await admin.query(
        "SELECT count(DISTINCT user_id)::int AS n FROM analytics_event WHERE type IN ('user.registered', 'user.verified')",
      )
    ).rows[0].n;
    if (accounts === 0 || known >= accounts) return { backfilled: false, written: 0 };
    if (accounts > BACKFILL_MAX_ACCOUNTS) {
      say(`analytics history not backfilled: ${accounts} accounts is more than this backfill reads (${BACKFILL_MAX_ACCOUNTS})`);
      return { backfilled: false, written: 0 };
    }
    say(`backfilling admin-service's analytics history: auth-service holds ${accounts} account(s), admin-service knows ${known}`);
    const profile = await open(profileDbUrl);
    const users = (await auth.query('SELECT id::text AS id, created_at, email_verified_at FROM users ORDER BY id')).rows;
    const onboarding = new Map(
      (await profile.query('SELECT user_id::text AS id, onboarding_completed, updated_at FROM profiles')).rows.map((r) => [r.id, r]),
    );
    const photosOf = new Map();
    for (const p of (await profile.query('SELECT id::text AS id, user_id::text AS "userId", created_at FROM photos')).rows) {
      photosOf.set(p.userId, [...(photosOf.get(p.userId) ?? []), { id: p.id, createdAt: p.created_at }]);
    }
    const members = users.map((u, i) => ({
      n: i + 1,
      userId: u.id,
      createdAt: u.created_at,
      verifiedAt: u.email_verified_at,
      onboarded: onboarding.get(u.id)?.onboarding_completed === true,
      updatedAt: onboarding.get(u.id)?.updated_at ?? null,
      photos: photosOf.get(u.id) ?? [],
    }));
    let swipes = [];
    let matches = [];
    if (matchingDbUrl) {
      const matching = await open(matchingDbUrl);
      if ((await hasTable(matching, 'swipe')) && (await hasTable(matching, 'match'))) {
        swipes = (
          await matching.query(
            'SELECT swiper_id::text AS "swiperId", target_id::text AS "targetId", liked, created_at AS at FROM swipe ORDER BY created_at, swiper_id, target_id',
          )
        ).rows;
        matches = (await matching.query('SELECT id::text AS id, user_a::text AS "userA", user_b::text AS "userB", created_at AS at FROM match')).rows;
      }
    }
    /** @type {import('./conversations.mjs').SeedConversation[]} */
    let conversations = [];
    if (chatDbUrl) {
      const chat = await open(chatDbUrl);
      if ((await hasTable(chat, 'conversation')) && (await hasTable(chat, 'message'))) {
        const byId = new Map();
        for (const c of (await chat.query('SELECT id::text AS id, member_a::text AS a, member_b::text AS b FROM conversation')).rows) {
          byId.set(c.id, { id: c.id, memberA: c.a, memberB: c.b, messages: [] });
        }
        const messages = await chat.query(
          `SELECT id::text AS id, conversation_id::text AS "conversationId", seq, sender_id::text AS "senderId",
                  recipient_id::text AS "recipientId", created_at AS at
             FROM message ORDER BY conversation_id, seq`,
        );
        for (const m of messages.rows) byId.get(m.conversationId)?.messages.push(m);
        conversations = [...byId.values()];
      }
    }
    const { facts, dropouts } = memberFacts(seed, members, { now });
    const made = historyFacts(seed, { swipes, matches, conversations }, { now });
    const all = [
      ...facts,
      ...made,
      ...activityFacts(seed, members, busyDaysOf(made), { now }),
      ...activityFacts(seed, dropouts.map((d) => ({ ...d, dropout: true })), new Map(), { now }),
    ];
    await admin.query('BEGIN');
    try {
      await insertAnalyticsFacts(admin, all);
      await admin.query('COMMIT');
    } catch (e) {
      await admin.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
    say(`admin-service: ${all.length} analytics fact(s) backfilled (${members.length} members, ${ANALYTICS_HISTORY_DAYS} days of activity)`);
    return { backfilled: true, written: all.length };
  } catch (e) {
    say(`admin-service's analytics history was not backfilled (${e instanceof Error ? e.message : e}); restart to retry`);
    return { backfilled: false, written: 0 };
  } finally {
    for (const c of clients) await c.end().catch(() => undefined);
  }
}
