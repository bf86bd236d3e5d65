// The seeding run: options in, summary out. See ../README.md.
import os from 'node:os';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import {
  connect,
  DEFAULT_DATABASE_URL,
  hasProfiles,
  insertPhotos,
  insertConversations,
  insertMatches,
  insertPreferences,
  insertProfiles,
  insertSwipes,
  insertUsers,
  recordPairMatches,
  recordCallMatches,
  lastDemoNumber,
  requireTables,
  withDatabase,
} from './db.mjs';
import { activityFacts, ANALYTICS_HISTORY_DAYS, busyDaysOf, historyFacts, insertAnalyticsFacts, memberFacts } from './analytics.mjs';
import { seedConversations } from './conversations.mjs';
import { HISTORY_WINDOW, swipeHistory } from './history.mjs';
import { EMAIL_DOMAIN, memberAt } from './population.mjs';
import { uuidFrom } from './random.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The shared password of every seeded member (tools/scripts/lib/demo.mjs uses it for the demo member too). */
export const DEMO_PASSWORD = 'mate-demo-2026';
/** auth-service's hashing (accounts.service.ts): argon2id, 19 MiB, 2 passes. */
const ARGON2_OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 };
const MAX_PHOTOS_PER_MEMBER = 4;

export const USAGE = `Usage: npm run seed -- [options]

  --members N          members to create (default 300)
  --auth-db URL        auth-service database (default: DATABASE_URL's server, database mate_auth)
  --profile-db URL     profile-service database (default: DATABASE_URL's server, database mate_profile)
  --matching-db URL    matching-service database, for the swipe history (default: DATABASE_URL's server, database mate_matching)
  --chat-db URL        chat-service database, for the matches' conversations (default: DATABASE_URL's server, database mate_chat)
  --safety-db URL      safety-service database, for the matches' pairs (default: DATABASE_URL's server, database mate_safety)
  --call-db URL        call-service database, for the matches it lets call (default: DATABASE_URL's server, database mate_call)
  --admin-db URL       admin-service database, for the analytics history (default: DATABASE_URL's server, database mate_admin)
  --photo-dir DIR      profile-service's PHOTO_DIR (default: $PHOTO_DIR, else <repo>/.data/uploads)
  --seed S             seed of the random choices; the same seed gives the same members (default 42)
  --if-empty           do nothing when the profiles table already has members
  --no-photos          members without photos (and so without a swipe history: Discover shows nobody without a photo)
  --no-swipes          no swipe history (matching-service's, chat-service's, safety-service's and call-service's databases are not touched)
  --no-chats           no conversations for the seeded matches (chat-service's database is not touched)
  --no-safety          no pair rows for the seeded matches (safety-service's database is not touched; unmatching them answers 404)
  --no-call            no call-service match rows for the seeded matches (call-service's database is not touched; they cannot call)
  --no-analytics       no analytics history (admin-service's database is not touched)
  --batch-size N       rows per INSERT (default 1000)
  --concurrency N      photos drawn at a time (default: CPU count)
  --pool-threshold N   above this many members, photos reuse a pool of drawn pictures (default 1000)
  --pool-size N        pictures in that pool (default 400)
  --help
`;

function integer(name, value, min) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number of at least ${min} (got ${value})`);
  return n;
}

/** The options of a command line (`argv` without node and the script). */
export function parseOptions(argv, env = process.env) {
  const { values } = parseArgs({
    args: argv,
    options: {
      members: { type: 'string', default: '300' },
      'auth-db': { type: 'string' },
      'profile-db': { type: 'string' },
      'matching-db': { type: 'string' },
      'chat-db': { type: 'string' },
      'safety-db': { type: 'string' },
      'call-db': { type: 'string' },
      'admin-db': { type: 'string' },
      'photo-dir': { type: 'string' },
      seed: { type: 'string', default: '42' },
      'if-empty': { type: 'boolean', default: false },
      'no-photos': { type: 'boolean', default: false },
      'no-swipes': { type: 'boolean', default: false },
      'no-chats': { type: 'boolean', default: false },
      'no-safety': { type: 'boolean', default: false },
      'no-call': { type: 'boolean', default: false },
      'no-analytics': { type: 'boolean', default: false },
      'batch-size': { type: 'string', default: '1000' },
      concurrency: { type: 'string' },
      'pool-threshold': { type: 'string', default: '1000' },
      'pool-size': { type: 'string', default: '400' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const databaseUrl = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  return {
    help: values.help,
    members: integer('members', values.members, 0),
    authDb: values['auth-db'] ?? withDatabase(databaseUrl, 'mate_auth'),
    profileDb: values['profile-db'] ?? withDatabase(databaseUrl, 'mate_profile'),
    matchingDb: values['matching-db'] ?? withDatabase(databaseUrl, 'mate_matching'),
    chatDb: values['chat-db'] ?? withDatabase(databaseUrl, 'mate_chat'),
    safetyDb: values['safety-db'] ?? withDatabase(databaseUrl, 'mate_safety'),
    callDb: values['call-db'] ?? withDatabase(databaseUrl, 'mate_call'),
    adminDb: values['admin-db'] ?? withDatabase(databaseUrl, 'mate_admin'),
    photoDir: path.resolve(values['photo-dir'] ?? env.PHOTO_DIR ?? path.join(ROOT, '.data/uploads')),
    seed: values.seed,
    ifEmpty: values['if-empty'],
    photos: !values['no-photos'],
    // Only members with a photo can be shown in Discover, so only they have swiped and been swiped.
    swipes: !values['no-swipes'] && !values['no-photos'],
    // Every seeded match has its conversation (and many an exchange), so there are chats only with matches.
    chats: !values['no-chats'] && !values['no-swipes'] && !values['no-photos'],
    // safety-service learns a pair's match from match.created, which the history does not publish:
    // its pair rows are written with the matches (else unmatching a seeded match answers 404).
    safety: !values['no-safety'] && !values['no-swipes'] && !values['no-photos'],
    // call-service too learns matches from match.created: its match rows are written with them
    // (else a seeded match may not call).
    call: !values['no-call'] && !values['no-swipes'] && !values['no-photos'],
    // admin-service's analytics store: the facts of the population and 90 days of activity.
    analytics: !values['no-analytics'],
    batchSize: integer('batch-size', values['batch-size'], 1),
    concurrency: integer('concurrency', values.concurrency ?? String(os.availableParallelism()), 1),
    poolThreshold: integer('pool-threshold', values['pool-threshold'], 0),
    poolSize: integer('pool-size', values['pool-size'], 2),
  };
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Seeds the population, its swipe history, the matches' conversations, their safety pairs and
 * call-service's matches. Writes into each database inside one transaction (the profile one commits
 * first, then the auth one, then the matching one, then the chat one, then the safety one, then the
 * call one), so a failed run leaves no
 * half population; the photo files it wrote are removed again. Returns the summary.
 */
export async function seed(options, log = (line) => process.stdout.write(`[seed] ${line}\n`)) {
  const started = Date.now();
  const authDb = await connect(options.authDb);
  let profileDb;
  let matchingDb = null;
  let chatDb = null;
  let safetyDb = null;
  let callDb = null;
  let adminDb = null;
  try {
    profileDb = await connect(options.profileDb);
    await requireTables(profileDb, ['profiles'], 'The profile-service');
    if (options.ifEmpty && (await hasProfiles(profileDb))) {
      const { rows } = await profileDb.query('SELECT count(*)::int AS n FROM profiles');
      log(`the profiles table already has ${rows[0].n} member(s); nothing to do (--if-empty)`);
      return { skipped: true, members: 0, photos: 0, swipes: 0, matches: 0, conversations: 0, messages: 0, pairs: 0, callMatches: 0, analyticsFacts: 0, cities: 0, ms: Date.now() - started };
    }
    await requireTables(profileDb, ['photos', 'preferences'], 'The profile-service');
    await requireTables(authDb, ['users'], 'The auth-service');
    if (options.swipes) {
      matchingDb = await connect(options.matchingDb);
      await requireTables(matchingDb, ['swipe', 'match'], 'The matching-service');
    }
    if (options.swipes && options.chats) {
      chatDb = await connect(options.chatDb);
      await requireTables(chatDb, ['conversation', 'message'], 'The chat-service');
    }
    if (options.swipes && options.safety) {
      safetyDb = await connect(options.safetyDb);
      await requireTables(safetyDb, ['pair', 'aggregate_version'], 'The safety-service');
    }
    if (options.swipes && options.call) {
      callDb = await connect(options.callDb);
      await requireTables(callDb, ['call_match'], 'The call-service');
    }
    if (options.analytics) {
      adminDb = await connect(options.adminDb);
      await requireTables(adminDb, ['analytics_event'], 'The admin-service');
    }
    return await populate(options, { authDb, profileDb, matchingDb, chatDb, safetyDb, callDb, adminDb }, log, started);
  } finally {
    await adminDb?.end().catch(() => undefined);
    await callDb?.end().catch(() => undefined);
    await safetyDb?.end().catch(() => undefined);
    await chatDb?.end().catch(() => undefined);
    await matchingDb?.end().catch(() => undefined);
    await profileDb?.end().catch(() => undefined);
    await authDb.end().catch(() => undefined);
  }
}

/** users.last_active_at of the batch's members from their newest `member.active` fact of the history. */
async function setLastActive(authDb, facts) {
  const last = new Map();
  for (const f of facts) {
    if (f.type !== 'member.active' || !f.userId) continue;
    if (!last.has(f.userId) || last.get(f.userId) < f.at) last.set(f.userId, f.at);
  }
  if (last.size === 0) return;
  await authDb.query(
    `UPDATE users u SET last_active_at = v.at
       FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, at)
      WHERE u.id = v.id`,
    [[...last.keys()], [...last.values()].map((d) => d.toISOString())],
  );
}

async function populate(options, { authDb, profileDb, matchingDb, chatDb, safetyDb, callDb, adminDb }, log, started) {
  const { members: total, batchSize, seed: seedValue } = options;
  if (options.photos && process.env.PHOTO_STORAGE === 's3') {
    throw new Error('photos are written to local storage (PHOTO_DIR); with PHOTO_STORAGE=s3 seed with --no-photos');
  }
  // Heavy modules only once there is work to do (`--if-empty` on a seeded database stays quick).
  const [{ default: argon2 }, { resolvedCities }, photos, taste] = await Promise.all([
    import('argon2'),
    import('./cities.mjs'),
    options.photos ? import('./photos.mjs') : Promise.resolve(null),
    matchingDb ? import('./taste.cjs') : Promise.resolve(null),
  ]);
  const tastes = taste ? new taste.HiddenTastes(seedValue) : null;
  const cities = resolvedCities();
  const first = (await lastDemoNumber(authDb, EMAIL_DOMAIN)) + 1;
  const now = Date.now();
  const passwordHash = await argon2.hash(DEMO_PASSWORD, { type: argon2.argon2id, ...ARGON2_OPTIONS });
  const mode = !photos ? 'none' : total > options.poolThreshold ? 'pool' : 'unique';
  log(
    `seeding ${total} member(s) #${first}–#${first + total - 1} (seed ${seedValue}, photos: ${
      mode === 'pool' ? `pool of ${options.poolSize} pictures, hard-linked` : mode
    })`,
  );

  const stats = {
    members: 0,
    photos: 0,
    byCity: new Map(),
    photoMs: 0,
    dbWaitMs: 0,
    swipes: 0,
    likes: 0,
    matches: 0,
    conversations: 0,
    exchanges: 0,
    messages: 0,
    unread: 0,
    pairs: 0,
    callMatches: 0,
    analytics: new Map(),
  };
  /** Members whose swipe history is still to be made (a window at a time). */
  const awaitingHistory = [];
  let pool = null;
  let committed = false;
  let attempted = 0; // members whose photo files may exist

  await authDb.query('BEGIN');
  await profileDb.query('BEGIN');
  await matchingDb?.query('BEGIN');
  await chatDb?.query('BEGIN');
  await safetyDb?.query('BEGIN');
  await callDb?.query('BEGIN');
  await adminDb?.query('BEGIN');
  try {
    if (photos && mode === 'pool') {
      const t = Date.now();
      pool = await photos.createPool(options.photoDir, seedValue, options.poolSize, options.concurrency);
      stats.photoMs += Date.now() - t;
    }
    /** @type {Promise<unknown>} */
    let inFlight = Promise.resolve();
    let nextReport = Date.now() + 10_000;
    for (let offset = 0; offset < total; offset += batchSize) {
      const batch = [];
      for (let i = offset; i < Math.min(total, offset + batchSize); i++) {
        batch.push(memberAt(seedValue, first + i, { cities, now }));
      }
      if (photos && mode !== 'none') {
        attempted = offset + batch.length;
        const t = Date.now();
        const slots = batch.flatMap((m) => m.photos);
        const shared = pool;
        if (!shared) {
          await photos.forEachLimited(slots, options.concurrency, async (p) => {
            p.sizes = await photos.makeUniquePhoto(options.photoDir, seedValue, p);
          });
        } else {
          await photos.forEachLimited(slots, 32, async (p) => {
            p.sizes = await shared.place(p, shared.pick(seedValue, p));
          });
        }
        stats.photoMs += Date.now() - t;
      }
      const histories = [];
      /** This batch's analytics facts (with the histories' facts of the windows it completes). */
      const analytics = [];
      if (adminDb) {
        const { facts, dropouts } = memberFacts(seedValue, batch, { now, photos: Boolean(photos) });
        analytics.push(...facts);
        // Members without a history have their activity now; the others once their window is complete.
        const alone = tastes ? [] : batch;
        analytics.push(...activityFacts(seedValue, [...alone, ...dropouts.map((d) => ({ ...d, dropout: true }))], new Map(), { now }));
      }
      if (tastes) {
        awaitingHistory.push(...batch);
        const last = offset + batch.length >= total;
        while (awaitingHistory.length >= HISTORY_WINDOW || (last && awaitingHistory.length > 0)) {
          const window = awaitingHistory.splice(0, HISTORY_WINDOW);
          const history = swipeHistory(seedValue, window, { tastes, now });
          const conversations = chatDb
            ? seedConversations(seedValue, history.matches, new Map(window.map((m) => [m.userId, m])), { now })
            : [];
          histories.push({ ...history, conversations });
          if (adminDb) {
            const facts = historyFacts(seedValue, { ...history, conversations }, { now });
            analytics.push(...facts, ...activityFacts(seedValue, window, busyDaysOf(facts), { now }));
          }
        }
      }
      const t = Date.now();
      await inFlight; // one batch in the databases while the next one is made
      stats.dbWaitMs += Date.now() - t;
      inFlight = Promise.all([
        (async () => {
          await insertUsers(authDb, batch, passwordHash);
          // The accounts' last activity, as auth-service keeps it from member.active: the newest active day of the history.
          await setLastActive(authDb, analytics);
        })(),
        (async () => {
          await insertProfiles(profileDb, batch);
          if (photos) stats.photos += await insertPhotos(profileDb, batch, photos.photoFileUrl, photos.storageKeyOf);
          await insertPreferences(profileDb, batch);
        })(),
        (async () => {
          for (const { swipes, matches } of histories) {
            await insertSwipes(matchingDb, swipes);
            await insertMatches(matchingDb, matches);
          }
        })(),
        (async () => {
          for (const { conversations } of histories) if (conversations.length) await insertConversations(chatDb, conversations);
        })(),
        (async () => {
          if (safetyDb) for (const { matches } of histories) stats.pairs += await recordPairMatches(safetyDb, matches);
        })(),
        (async () => {
          if (callDb) for (const { matches } of histories) stats.callMatches += await recordCallMatches(callDb, matches);
        })(),
        adminDb ? insertAnalyticsFacts(adminDb, analytics) : null,
      ]);
      for (const f of analytics) stats.analytics.set(f.type, (stats.analytics.get(f.type) ?? 0) + 1);
      for (const { swipes, matches, conversations } of histories) {
        stats.swipes += swipes.length;
        stats.likes += swipes.filter((s) => s.liked).length;
        stats.matches += matches.length;
        for (const c of conversations) {
          stats.conversations++;
          stats.messages += c.messages.length;
          if (c.messages.length) stats.exchanges++;
          if (c.aUnread + c.bUnread > 0) stats.unread++;
        }
      }
      inFlight.catch(() => undefined); // awaited (and thrown) at the next turn
      for (const m of batch) stats.byCity.set(m.location, (stats.byCity.get(m.location) ?? 0) + 1);
      stats.members += batch.length;
      if (Date.now() >= nextReport) {
        log(`${stats.members}/${total} members (${seconds(Date.now() - started)})`);
        nextReport = Date.now() + 10_000;
      }
    }
    const t = Date.now();
    await inFlight;
    await profileDb.query('COMMIT');
    await authDb.query('COMMIT');
    await matchingDb?.query('COMMIT');
    await chatDb?.query('COMMIT');
    await safetyDb?.query('COMMIT');
    await callDb?.query('COMMIT');
    await adminDb?.query('COMMIT');
    stats.dbWaitMs += Date.now() - t;
    committed = true;
  } catch (e) {
    await profileDb.query('ROLLBACK').catch(() => undefined);
    await authDb.query('ROLLBACK').catch(() => undefined);
    await matchingDb?.query('ROLLBACK').catch(() => undefined);
    await chatDb?.query('ROLLBACK').catch(() => undefined);
    await safetyDb?.query('ROLLBACK').catch(() => undefined);
    await callDb?.query('ROLLBACK').catch(() => undefined);
    await adminDb?.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    await pool?.dispose();
    if (!committed && attempted) await removePhotoFiles(options.photoDir, seedValue, first, attempted, options.concurrency);
  }

  const ms = Date.now() - started;
  const cityCount = new Set([...stats.byCity.keys()].map((text) => text.split(',')[0])).size;
  log(
    `${stats.members} members, ${stats.photos} photos, ${cityCount} cities in ${seconds(ms)} ` +
      `(photos ${seconds(stats.photoMs)}, waiting for the databases ${seconds(stats.dbWaitMs)}` +
      `${stats.members ? `, ${Math.round(stats.members / (ms / 1000))} members/s` : ''})`,
  );
  if (tastes) {
    log(`swipe history: ${stats.swipes} swipes (${stats.likes} likes), ${stats.matches} matches`);
  }
  if (chatDb) {
    log(
      `conversations: ${stats.conversations} (one per match), ${stats.exchanges} with messages (${stats.messages} messages), ` +
        `${stats.unread} with unread messages`,
    );
  }
  if (safetyDb) log(`safety pairs: ${stats.pairs} (one per match, holding it)`);
  if (callDb) log(`call-service matches: ${stats.callMatches} (one per match, so each pair may call)`);
  const analyticsFacts = [...stats.analytics.values()].reduce((sum, n) => sum + n, 0);
  if (adminDb) {
    const count = (type) => stats.analytics.get(type) ?? 0;
    log(
      `analytics history: ${analyticsFacts} facts (${count('user.registered')} registrations, ${count('user.deleted')} of them deleted again, ` +
        `${count('member.active')} member-days active over ${ANALYTICS_HISTORY_DAYS} days, ${count('report.created')} reports, ` +
        `${count('user.blocked')} blocks, ${count('user.suspended')} suspensions, ${count('call.ended')} calls)`,
    );
  }
  if (stats.members) {
    log(
      [...stats.byCity.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([city, n]) => `${city} ${n}`)
        .join(' · '),
    );
    const sample = memberAt(seedValue, first, { cities, now });
    log(`sign in as any of them with password ${DEMO_PASSWORD}, e.g. ${sample.email}`);
  }
  return {
    skipped: false,
    members: stats.members,
    photos: stats.photos,
    swipes: stats.swipes,
    matches: stats.matches,
    conversations: stats.conversations,
    messages: stats.messages,
    pairs: stats.pairs,
    callMatches: stats.callMatches,
    analyticsFacts,
    cities: cityCount,
    firstNumber: first,
    photoMode: mode,
    linkCopies: pool?.copies ?? 0,
    ms,
  };
}

/** Removes the photo folders a failed run may have written (ids follow from seed and number). */
async function removePhotoFiles(photoDir, seedValue, first, total, concurrency) {
  const { forEachLimited, storageKeyOf } = await import('./photos.mjs');
  const numbers = Array.from({ length: total }, (_, i) => first + i);
  await forEachLimited(numbers, Math.max(8, concurrency), async (n) => {
    for (let order = 0; order < MAX_PHOTOS_PER_MEMBER; order++) {
      await rm(path.join(photoDir, storageKeyOf(uuidFrom('photo', seedValue, n, order))), { recursive: true, force: true });
    }
  });
}
