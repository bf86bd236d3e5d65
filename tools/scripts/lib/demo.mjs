// Demo accounts for `npm start`: a member who is onboarded like a person would be (full profile in
// a seeded city, photos, preferences) and a verified admin; then a few seeded members who like the
// demo member, so the demo's first likes in Discover make a match. Everything goes through the
// public API (and the verification link from the mail catcher), the same way a person would, so
// the data is consistent across every service. Then her past: five matches with seeded members and
// their conversations (unread, read, long, new), written into matching-service's and chat-service's
// tables like the seeder's history (a past has no events), safety-service's pair rows holding
// each match (so she can unmatch them) and call-service's match rows (so she can call them). And
// one more match of her past whom she
// blocked, through the public API (POST /api/safety/block), so every service hears of it as of any
// block and her Safety screen lists him. Each step is skipped when already done, so later starts
// change nothing.
import { log } from './platform.mjs';

export const DEMO_ACCOUNTS = {
  member: { email: 'demo@mate.local', password: 'mate-demo-2026', name: 'Demo Member', age: 29 },
  admin: { email: 'admin@mate.local', password: 'mate-admin-2026', name: 'Mate Admin', age: 35 },
};

/**
 * The demo member's profile: New York, the largest seeded place (with Brooklyn, a quarter of the
 * population), and preferences (men of 25–40 within 50 km) that leave a full Discover queue among
 * the 1,000 members `npm start` seeds (about 35 people who fit her and whom she fits).
 */
const DEMO_PROFILE = {
  onboarding: {
    name: DEMO_ACCOUNTS.member.name,
    age: DEMO_ACCOUNTS.member.age,
    gender: 'female',
    bio: 'Product designer by day, dumpling hunter by night. Looking for someone to walk across the bridges with and argue about the best coffee in town.',
    interests: ['Travel', 'Music', 'Cooking', 'Photography', 'Hiking', 'Coffee'],
    lookingFor: 'long-term',
    location: 'New York, NY',
  },
  details: {
    height: 168,
    occupation: 'Product Designer',
    education: "Bachelor's Degree",
    smoking: 'never',
    drinking: 'socially',
    exercise: 'regularly',
    pets: 'dog',
  },
  preferences: { minAge: 25, maxAge: 40, maxDistance: 50, genderPreference: ['male'] },
  /** Drawn like the seeded members' photos (tools/seed/lib/artwork.mjs). */
  photos: ['portrait', 'portrait', 'city'],
};
/** How many seeded members in the demo member's queue like her before she starts. */
const ADMIRERS = 4;
/** How long to wait for matching-service to hold the demo member (events after onboarding). */
const MATCHING_WAIT_MS = 120_000;
/**
 * How often to ask for the demo member's queue meanwhile. Each ask is one of her suggestion loads,
 * which matching-service limits per member (30 a minute, 600 a day): at 24 a minute the wait never
 * hits the limit, and leaves her the loads the person trying the demo in the browser needs.
 */
const MATCHING_POLL_MS = 2_500;

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Whether the demo member has a closed conversation in chat-service's database: a block (or an
 * unmatch) closed it, so her past's block was made (or she used the safety tools herself).
 */
async function hasClosedConversation(chatDbUrl, userId) {
  return withClient(chatDbUrl, async (db) =>
    (
      await db.query('SELECT EXISTS (SELECT 1 FROM conversation WHERE (member_a = $1 OR member_b = $1) AND closed_at IS NOT NULL) AS any', [
        userId,
      ])
    ).rows[0].any,
  );
}

/** Whether the demo member has any conversation in chat-service's database (her chats are made once). */
async function hasConversations(chatDbUrl, userId) {
  return withClient(chatDbUrl, async (db) =>
    (await db.query('SELECT EXISTS (SELECT 1 FROM conversation WHERE member_a = $1 OR member_b = $1) AS any', [userId])).rows[0].any,
  );
}

async function call(url, method, { body, token, form } = {}) {
  const res = await fetch(url, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: form ?? (body ? JSON.stringify(body) : undefined),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Repeats `attempt` until it answers one of `statuses` (a service may not have handled an event yet). */
async function until(statuses, attempt, what, { tries = 100, intervalMs = 100 } = {}) {
  let last = null;
  for (let i = 0; i < tries; i++) {
    last = await attempt();
    if (statuses.includes(last.status)) return last;
    await pause(intervalMs);
  }
  throw new Error(`${what}: ${last?.body?.error ?? last?.status}`);
}

async function verificationToken(maildevUrl, email) {
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${maildevUrl}/email`);
    const emails = await res.json();
    const match = emails
      .filter((e) => e.to?.some((t) => t.address === email))
      .map((e) => /verify-email\?token=([A-Za-z0-9_-]+)/.exec(`${e.text ?? ''}${e.html ?? ''}`))
      .filter(Boolean)
      .pop();
    if (match) return match[1];
    await pause(100);
  }
  return null;
}

/** Signs in (registering and verifying the account first if needed); answers the session. */
async function ensureAccount(gatewayUrl, maildevUrl, account) {
  const { email, password, name, age } = account;
  let res = await call(`${gatewayUrl}/api/auth/login`, 'POST', { body: { email, password } });
  if (res.status === 401) {
    res = await call(`${gatewayUrl}/api/auth/register`, 'POST', { body: { email, password, name, age } });
    if (res.status !== 201) throw new Error(`demo account ${email}: ${res.body?.error ?? res.status}`);
  } else if (res.status !== 200) {
    throw new Error(`demo account ${email}: ${res.body?.error ?? res.status}`);
  }
  if (!res.body.user.isVerified) {
    const verifyToken = await verificationToken(maildevUrl, email);
    if (verifyToken) await call(`${gatewayUrl}/api/verification/verify`, 'POST', { body: { token: verifyToken } });
  }
  return { token: res.body.token, userId: res.body.user.id };
}

/** The demo member's photos as PNG uploads, drawn by the seeder's artwork (no downloads). */
async function demoPhotos() {
  const [{ renderUpload }, { Rng }] = await Promise.all([import('../../seed/lib/photos.mjs'), import('../../seed/lib/random.mjs')]);
  return Promise.all(
    DEMO_PROFILE.photos.map((kind, i) => renderUpload(kind, new Rng('demo-member-photo', i), { png: true, presentation: 'feminine' })),
  );
}

/**
 * The demo member's profile, photos and preferences, then onboarding completed with its fields:
 * what the onboarding screens and Edit Profile send. Skipped once onboarding is complete with photos.
 */
async function onboardDemoMember(gatewayUrl, token) {
  const api = (path, method, options = {}) => call(`${gatewayUrl}${path}`, method, { ...options, token });
  const me = await until([200], () => api('/api/profile/me', 'GET'), 'demo profile');
  if (me.body.onboardingCompleted && me.body.photos.length > 0) return false;
  await until([200], () => api('/api/profile/me', 'PUT', { body: DEMO_PROFILE.details }), 'demo profile details');
  const pictures = await demoPhotos();
  for (const picture of pictures.slice(me.body.photos.length)) {
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(picture)], { type: 'image/png' }), 'photo.png');
    await until([201], () => api('/api/photos/upload?context=onboarding', 'POST', { form }), 'demo photo upload');
  }
  await until([200], () => api('/api/preferences/me', 'PUT', { body: DEMO_PROFILE.preferences }), 'demo preferences');
  await until([200], () => api('/api/profile/me/complete-onboarding', 'POST', { body: DEMO_PROFILE.onboarding }), 'demo onboarding');
  return true;
}

/**
 * The demo member's Discover queue once matching-service holds her (events after onboarding):
 * asked every MATCHING_POLL_MS for up to MATCHING_WAIT_MS.
 */
async function demoQueue(gatewayUrl, demo) {
  const deadline = Date.now() + MATCHING_WAIT_MS;
  for (;;) {
    const page = await call(`${gatewayUrl}/api/matches/suggestions?limit=20`, 'GET', { token: demo.token });
    if (page.status === 429) throw new Error(`matching-service limits the demo member's suggestion loads: ${page.body?.error}`);
    if (page.status === 200 && page.body.length > 0) return page.body;
    if (Date.now() > deadline) throw new Error(`matching-service showed the demo member nobody within ${MATCHING_WAIT_MS / 1000} s`);
    await pause(MATCHING_POLL_MS);
  }
}

async function withClient(url, work) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, application_name: 'mate-demo' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** `work` in one transaction of a connection to `url`: all of it is written, or none. */
function inTransaction(url, work) {
  return withClient(url, async (db) => {
    await db.query('BEGIN');
    try {
      const result = await work(db);
      await db.query('COMMIT');
      return result;
    } catch (e) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  });
}

/** The seeded members of a queue (they share the demo password), in queue order, with their emails. */
async function seededOf(authDbUrl, queue) {
  const [{ EMAIL_DOMAIN }] = await Promise.all([import('../../seed/lib/population.mjs')]);
  const rows = await withClient(authDbUrl, async (db) =>
    (
      await db.query(
        `SELECT u.id::text AS id, u.email FROM unnest($1::uuid[]) WITH ORDINALITY AS q(id, n) JOIN users u ON u.id = q.id
          WHERE lower(u.email) LIKE '%@' || $2 ORDER BY q.n`,
        [queue.map((s) => s.user.id), EMAIL_DOMAIN],
      )
    ).rows,
  );
  const byId = new Map(queue.map((s) => [s.user.id, s.user]));
  return rows.map((r) => ({ ...byId.get(r.id), email: r.email }));
}

/**
 * The first few seeded members of her queue sign in (they share the demo password) and like her,
 * so her first likes in Discover make 'It's a Match!'.
 */
async function likeDemoMember(gatewayUrl, demo, admirers) {
  const { DEMO_PASSWORD } = await import('../../seed/lib/run.mjs');
  const api = (path, method, token) => call(`${gatewayUrl}${path}`, method, { token });
  let liked = 0;
  for (const { email } of admirers) {
    const login = await call(`${gatewayUrl}/api/auth/login`, 'POST', { body: { email, password: DEMO_PASSWORD } });
    if (login.status !== 200) throw new Error(`seeded member ${email} could not sign in: ${login.body?.error ?? login.status}`);
    const like = await api(`/api/matches/like/${demo.userId}`, 'POST', login.body.token);
    await api('/api/auth/logout', 'POST', login.body.token);
    if (like.status !== 200 && like.status !== 201) throw new Error(`seeded member ${email} could not like the demo member: ${like.body?.error ?? like.status}`);
    liked++;
  }
  return liked;
}

/** Reports seeded members make for the admin's queue: [reporter, reported, reason, details] by position. */
const DEMO_REPORTS = [
  [0, 3, 'harassment', 'Kept messaging me after I said I was not interested.'],
  [1, 3, 'fake_profile', 'The photos look like a stock model, and the story changed every message.'],
  [2, 4, 'spam', 'Asked me to move to another app and sent a link to a crypto site.'],
];

/** A few pending reports among seeded members (through the API, as members make them), so the admin dashboard has work. */
async function demoReports(gatewayUrl, authDbUrl) {
  const [{ DEMO_PASSWORD }, { EMAIL_DOMAIN }] = await Promise.all([import('../../seed/lib/run.mjs'), import('../../seed/lib/population.mjs')]);
  const members = await withClient(authDbUrl, async (db) =>
    (await db.query(`SELECT id::text AS id, email FROM users WHERE lower(email) LIKE '%@' || $1 ORDER BY md5(email) LIMIT 5`, [EMAIL_DOMAIN])).rows,
  );
  if (members.length < 5) return 0;
  let made = 0;
  for (const [reporter, reported, reason, details] of DEMO_REPORTS) {
    const login = await call(`${gatewayUrl}/api/auth/login`, 'POST', { body: { email: members[reporter].email, password: DEMO_PASSWORD } });
    if (login.status !== 200) continue;
    const res = await call(`${gatewayUrl}/api/safety/report/${members[reported].id}`, 'POST', { token: login.body.token, body: { reason, details } });
    await call(`${gatewayUrl}/api/auth/logout`, 'POST', { token: login.body.token });
    if (res.status === 201) made++;
  }
  return made;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The demo member's conversations, newest activity first in Messages: two with messages she has
 * not read (one a couple of minutes ago, one hours ago), a new match nobody has written to yet
 * ('Start a conversation'), and two read exchanges (one of 72 messages, so the chat loads older
 * ones as she scrolls up; one short). Times are relative to now.
 */
const DEMO_CHATS = [
  { matchedAgo: 1 * DAY, count: 9, lastAgo: 2 * MINUTE, unreadRun: 2, firstWriter: 'them' },
  { matchedAgo: 20 * MINUTE, count: 0 },
  { matchedAgo: 3 * DAY, count: 13, lastAgo: 3 * HOUR, unreadRun: 1, firstWriter: 'her' },
  { matchedAgo: 12 * DAY, count: 72, lastAgo: 1 * DAY + 2 * HOUR, firstWriter: 'her' },
  { matchedAgo: 6 * DAY, count: 6, lastAgo: 2 * DAY + 5 * HOUR, firstWriter: 'them' },
];

/**
 * Her call history (the Calls screen's list, statistics and ring): past calls with her matches
 * (`partner` indexes DEMO_CHATS, each call after that match was made), as call-service would have
 * recorded them: 3 completed of 6, the others missed, rejected and failed (0 s, as call-service
 * ends them).
 */
const DEMO_CALLS = [
  { partner: 0, from: 'them', status: 'completed', ago: 5 * HOUR, seconds: 14 * 60 + 32 },
  { partner: 0, from: 'her', status: 'missed', ago: 20 * HOUR },
  { partner: 2, from: 'her', status: 'completed', ago: 2 * DAY, seconds: 6 * 60 + 5 },
  { partner: 2, from: 'them', status: 'rejected', ago: 2 * DAY + 3 * HOUR },
  { partner: 3, from: 'her', status: 'completed', ago: 4 * DAY, seconds: 38 * 60 + 10 },
  { partner: 4, from: 'them', status: 'failed', ago: 5 * DAY },
];
/** How long a demo call rang before it was answered, rejected or missed (call-service: 30 s). */
const RING_SECONDS = { completed: 8, rejected: 6, missed: 30, failed: 0 };

/** Writes `calls` (DEMO_CALLS) for the matches made (`made[i].them`) into call-service's `call_record`. */
async function recordDemoCalls(db, uuidFrom, demoId, made, now, calls) {
  let written = 0;
  for (const [i, plan] of calls.entries()) {
    const partner = made[plan.partner]?.them;
    if (!partner) continue;
    const [caller, recipient] = plan.from === 'her' ? [demoId, partner.userId] : [partner.userId, demoId];
    const started = new Date(now - plan.ago);
    const rang = new Date(started.getTime() + RING_SECONDS[plan.status] * 1000);
    const completed = plan.status === 'completed';
    const ended = completed ? new Date(rang.getTime() + plan.seconds * 1000) : rang;
    const { rowCount } = await db.query(
      `INSERT INTO call_record (id, caller_id, recipient_id, status, started_at, answered_at, ended_at, duration_seconds)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
      [uuidFrom('demo-call', String(i), demoId), caller, recipient, plan.status, started.toISOString(), completed ? rang.toISOString() : null, ended.toISOString(), completed ? plan.seconds : 0],
    );
    written += rowCount ?? 0;
  }
  return written;
}

/**
 * The match of her past she blocked (her Safety screen's Blocked entry): matched 9 days ago, a
 * short exchange, then blocked through the API with a reason.
 */
const DEMO_BLOCKED = {
  chat: { matchedAgo: 9 * DAY, count: 5, lastAgo: 8 * DAY, firstWriter: 'them' },
  reason: 'Pushy and rude after I said I was not ready to meet',
};

/**
 * Matches of the demo member with seeded members of her queue (not her admirers), each with its
 * conversation: the match in matching-service's tables (both likes and the `match` row, so My
 * Matches, the dashboard and Discover agree), the conversation with its messages and read state
 * in chat-service's, and the pair holding the match in safety-service's (what match.created would
 * have recorded: without it, unmatching answers 'You are not matched with this member', and a
 * block would name no ended match), and the match in call-service's (with the pair version
 * matching holds it under: without it the pair may not call), written straight into the tables
 * like the seeder's (no match.created: it is the past), and her call history with them
 * (DEMO_CALLS) in call-service's `call_record`. Skipped when she has any conversation already. Answers how many.
 * Exported for the seeder's tests.
 */
export async function demoChats({ matchingDbUrl, chatDbUrl, safetyDbUrl, callDbUrl, adminDbUrl }, demo, partners, plans = DEMO_CHATS, calls = plans === DEMO_CHATS ? DEMO_CALLS : []) {
  const [{ conversationOf }, { insertConversations, recordPairMatches, recordCallMatches }, { uuidFrom }, { historyFacts, insertAnalyticsFacts }] = await Promise.all([
    import('../../seed/lib/conversations.mjs'),
    import('../../seed/lib/db.mjs'),
    import('../../seed/lib/random.mjs'),
    import('../../seed/lib/analytics.mjs'),
  ]);
  const now = Date.now();
  const me = { userId: demo.userId, name: DEMO_PROFILE.onboarding.name.split(' ')[0], interests: DEMO_PROFILE.onboarding.interests, location: DEMO_PROFILE.onboarding.location };
  const made = partners.slice(0, plans.length).map((p, i) => {
    const plan = plans[i];
    const them = { userId: p.id, name: p.name ?? 'there', interests: p.interests ?? [], location: p.location ?? undefined };
    const [a, b] = me.userId < them.userId ? [me, them] : [them, me];
    const mine = a === me ? 0 : 1;
    const match = { id: uuidFrom('demo-match', a.userId, b.userId), userA: a.userId, userB: b.userId, at: new Date(now - plan.matchedAgo) };
    const conversation = conversationOf('demo', match, a, b, {
      now,
      count: plan.count,
      ...(plan.count
        ? {
            lastAt: now - plan.lastAgo,
            firstWriter: plan.firstWriter === 'her' ? mine : 1 - mine,
            ...(plan.unreadRun ? { unreadBy: mine, unreadRun: plan.unreadRun } : { allRead: true }),
          }
        : {}),
    });
    return { match, conversation, them };
  });
  const likes = made.flatMap(({ match, them }) => [
    { swiperId: them.userId, targetId: demo.userId, liked: true, at: new Date(match.at.getTime() - 6 * HOUR) },
    { swiperId: demo.userId, targetId: them.userId, liked: true, at: match.at },
  ]);
  await inTransaction(matchingDbUrl, async (db) => {
    for (const { match, them } of made) {
      const theirLike = new Date(match.at.getTime() - 6 * HOUR);
      await db.query(
        `INSERT INTO swipe (swiper_id, target_id, liked, created_at) VALUES ($1, $2, true, $3), ($2, $1, true, $4)
         ON CONFLICT (swiper_id, target_id) DO UPDATE SET liked = true`,
        [them.userId, demo.userId, theirLike.toISOString(), match.at.toISOString()],
      );
      await db.query(
        'INSERT INTO match (id, user_a, user_b, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (user_a, user_b) DO NOTHING',
        [match.id, match.userA, match.userB, match.at.toISOString()],
      );
      // The pair version matching holds the match under (safety's rule for a match: ADR 0014).
      const { rows } = await db.query(
        "SELECT coalesce((SELECT version FROM applied_version WHERE aggregate_type = 'pair' AND aggregate_id = $1), 0)::text AS v",
        [`${match.userA}:${match.userB}`],
      );
      match.pairVersion = rows[0].v;
    }
  });
  await inTransaction(chatDbUrl, async (db) => {
    await insertConversations(
      db,
      made.map((m) => m.conversation),
    );
  });
  if (safetyDbUrl) {
    await inTransaction(safetyDbUrl, async (db) => {
      await recordPairMatches(
        db,
        made.map((m) => m.match),
      );
    });
  }
  if (callDbUrl) {
    // call-service decides whether a pair may call from its own pair state (blocks, ended
    // matches, pair versions), so a match blocked afterwards (demoBlock) stays not callable.
    await inTransaction(callDbUrl, async (db) => {
      await recordCallMatches(
        db,
        made.map((m) => m.match),
      );
      await recordDemoCalls(db, uuidFrom, demo.userId, made, now, calls);
    });
  }
  if (adminDbUrl) {
    // admin-service counts matches from its event store (its README, 'What a match is'): her past's
    // likes, matches and messages as the facts it would have recorded, like the seeder's history.
    // Only those kinds: the history's made-up calls and reports would name calls and reports no
    // other service holds.
    const recorded = new Set(['like.created', 'match.created', 'message.sent']);
    const facts = historyFacts(
      'demo',
      { swipes: likes, matches: made.map((m) => m.match), conversations: made.map((m) => m.conversation) },
      { now },
    ).filter((f) => recorded.has(f.type));
    await inTransaction(adminDbUrl, (db) => insertAnalyticsFacts(db, facts));
  }
  return made.length;
}

/**
 * Her past's blocked match: written like her other matches (demoChats: safety's pair holds the
 * match, so the block ends it and names it as ended; call-service knows it, and the block makes it
 * not callable, as for a match made live), then blocked by her through the public API, so safety-service records the block and tells every service as for
 * any block: matching ends the match, chat closes and hides the conversation (kept for
 * moderation), profile-service hides each one's profile from the other. Answers his name.
 */
async function demoBlock(urls, gatewayUrl, demo, partner) {
  await demoChats(urls, demo, [partner], [DEMO_BLOCKED.chat]);
  const blocked = await until(
    [200, 201],
    () => call(`${gatewayUrl}/api/safety/block/${partner.id}`, 'POST', { token: demo.token, body: { reason: DEMO_BLOCKED.reason } }),
    'demo block',
  );
  return blocked.body?.name ?? partner.name ?? 'a seeded member';
}

/**
 * Prepares the demo member and admin. `authDbUrl` (auth-service's database) names the seeded
 * members who like the demo member; `matchingDbUrl` and `chatDbUrl` (matching-service's and
 * chat-service's) receive her matches with conversations, `safetyDbUrl` (safety-service's) their
 * pairs, `callDbUrl` (call-service's) the matches and `adminDbUrl` (admin-service's event store)
 * their likes, matches and messages, so the admin screens count them. A failure is reported, never
 * fatal.
 */
export async function createDemoAccounts({ gatewayUrl, maildevUrl, authDbUrl, matchingDbUrl, chatDbUrl, safetyDbUrl, callDbUrl, adminDbUrl }) {
  try {
    const demo = await ensureAccount(gatewayUrl, maildevUrl, DEMO_ACCOUNTS.member);
    if (await onboardDemoMember(gatewayUrl, demo.token)) log(`demo member onboarded in ${DEMO_PROFILE.onboarding.location} with photos`);
    const stats = await until([200], () => call(`${gatewayUrl}/api/matches/stats`, 'GET', { token: demo.token }), 'demo match stats');
    const wantsAdmirers = stats.body.likesReceived === 0;
    const wantsChats = Boolean(matchingDbUrl && chatDbUrl) && !(await hasConversations(chatDbUrl, demo.userId));
    const wantsBlock =
      Boolean(matchingDbUrl && chatDbUrl) &&
      !(await hasClosedConversation(chatDbUrl, demo.userId)) &&
      (await until([200], () => call(`${gatewayUrl}/api/safety/blocked`, 'GET', { token: demo.token }), 'demo blocked list')).body.length === 0;
    if (wantsAdmirers || wantsChats || wantsBlock) {
      const seeded = await seededOf(authDbUrl, await demoQueue(gatewayUrl, demo));
      const admirers = wantsAdmirers ? seeded.slice(0, ADMIRERS) : [];
      if (wantsAdmirers) {
        const liked = await likeDemoMember(gatewayUrl, demo, admirers);
        log(`${liked} seeded members in the demo member's Discover queue like her already: her first likes can match`);
      }
      if (wantsChats || wantsBlock) {
        // Partners: seeded members of her queue who have not swiped her (so not her admirers).
        const swiped = await withClient(matchingDbUrl, async (db) =>
          new Set(
            (await db.query('SELECT swiper_id::text AS id FROM swipe WHERE target_id = $1', [demo.userId])).rows.map((r) => r.id),
          ),
        );
        let partners = seeded.filter((m) => !swiped.has(m.id) && !admirers.some((a) => a.id === m.id));
        if (wantsChats) {
          const made = await demoChats({ matchingDbUrl, chatDbUrl, safetyDbUrl, callDbUrl, adminDbUrl }, demo, partners);
          log(`the demo member has ${made} matches with conversations (2 unread, 2 read, 1 new match) in Messages${callDbUrl ? ', and past calls with them in Calls' : ''}`);
          partners = partners.slice(made);
        }
        if (wantsBlock && partners.length > 0) {
          const name = await demoBlock({ matchingDbUrl, chatDbUrl, safetyDbUrl, callDbUrl, adminDbUrl }, gatewayUrl, demo, partners[0]);
          log(`the demo member blocked ${name}, a match of 9 days ago: Safety & Privacy lists him`);
        }
      }
    }
    await call(`${gatewayUrl}/api/auth/logout`, 'POST', { token: demo.token });
  } catch (e) {
    log(`the demo member could not be prepared: ${e.message}`);
  }
  try {
    const admin = await ensureAccount(gatewayUrl, maildevUrl, DEMO_ACCOUNTS.admin);
    const skip = () => call(`${gatewayUrl}/api/profile/me/complete-onboarding`, 'POST', { token: admin.token });
    await until([200], skip, 'admin onboarding', { tries: 50 });
    const pending = await call(`${gatewayUrl}/api/admin/reports?status=pending&limit=1`, 'GET', { token: admin.token });
    if (pending.status === 200 && Array.isArray(pending.body) && pending.body.length === 0) {
      const made = await demoReports(gatewayUrl, authDbUrl);
      if (made > 0) log(`${made} seeded members reported others: the admin dashboard has pending reports to moderate`);
    }
    await call(`${gatewayUrl}/api/auth/logout`, 'POST', { token: admin.token });
  } catch (e) {
    log(`the demo admin could not be prepared: ${e.message}`);
  }
}
