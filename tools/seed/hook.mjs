// The seeding step of `npm start` (tools/scripts/start.mjs): the seeder in its own process with
// --if-empty, so a fresh install gets the demo population (1,000 members with photos and a swipe
// history) and every later start does nothing; then the event backfill and the first fit of the
// scoring model. Summaries are printed; a failure is reported, never fatal.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

/**
 * The population of a first start: 1,000 members, so that the demo member's city (New York with
 * Brooklyn, a quarter of the members) holds a full Discover queue and the swipe history gives the
 * model a few thousand swipes to learn from (300 members give fewer than the 500 a refit needs).
 * Their photos come from a pool of 400 pictures drawn once (about 20 s of CPU instead of two
 * minutes for 2,500 pictures drawn one by one; portraits still present like each member).
 */
export const START_SEED_ARGS = ['--if-empty', '--members', '1000', '--pool-threshold', '0', '--pool-size', '400'];

/** Resolves to true when the population is there (seeded now or before), else false. */
export function seedIfEmpty({ databaseUrl }) {
  process.stdout.write('[mate] seeding the demo population (only into an empty profiles table)...\n');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(HERE, 'seed.mjs'), ...START_SEED_ARGS], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    const failed = (why) => {
      process.stdout.write(`[mate] the demo population was not seeded (${why}); retry with: npm run seed -- --if-empty\n`);
      resolve(false);
    };
    child.once('error', (e) => failed(e.message));
    child.once('exit', (code, signal) => (code === 0 ? resolve(true) : failed(signal ?? `exit ${code}`)));
  });
}

/**
 * Producers whose `republish` command emits the state the seeder wrote without events:
 * auth-service (user.registered, user.verified) and profile-service (profile.updated,
 * preferences.updated).
 */
export const REPUBLISHERS = ['auth-service', 'profile-service'];

/**
 * The consumers of profile.updated (libs/contracts EVENT_CATALOGUE, which this plain-Node launcher
 * cannot import; src/backfill.integration-spec.ts checks that the two agree).
 */
export const PROFILE_CONSUMERS = ['matching-service', 'chat-service', 'safety-service', 'call-service', 'notification-service'];

/** How long `npm start` waits for every consumer to catch up after a backfill. */
const CATCH_UP_SECONDS = 120;

/**
 * After seeding: the seeder writes tables directly, so no consumer has heard of the seeded
 * members. When profile-service holds members that no user event reached (seeded now, or an
 * earlier backfill was interrupted), run each producer's `republish` (the running services'
 * relays publish the events), then wait until `npm run events -- status` shows every consumer
 * caught up, and print it. Every consumer then holds each seeded member as if they had signed up
 * through the API. When every member reached profile-service but a consumer of profile.updated
 * holds fewer profiles than profile-service (a consumer deployed after the members, as
 * safety-service was for an installation of before issue 10), only profile-service republishes.
 * A start with nothing to backfill only counts rows.
 *
 * options: { databases: { [service]: url } (every producer database, and the consumers' to
 *            compare), redisUrl, keyPrefix, waitSeconds }. Resolves { republished, caughtUp } (and
 *            profilesOnly when only profile-service republished); a failure is reported, never fatal.
 */
export async function backfillConsumers({ databases, redisUrl, keyPrefix, waitSeconds = CATCH_UP_SECONDS }) {
  const say = (line) => process.stdout.write(`[mate] ${line}\n`);
  try {
    const pending = await membersNotDelivered(databases['profile-service']);
    const lagging = pending === 0 ? await consumersMissingProfiles(databases) : [];
    if (pending === 0 && lagging.length === 0) return { republished: false, caughtUp: true };
    let republishers = REPUBLISHERS;
    if (pending > 0) {
      say(`backfilling the event consumers: ${pending} member(s) were written without events (npm run events -- status shows progress)`);
    } else {
      const which = lagging.map((l) => `${l.service} holds ${l.held} of ${l.total}`).join(', ');
      say(`backfilling profile.updated: ${which} profiles (a consumer deployed after them); profile-service republishes its state`);
      republishers = ['profile-service'];
    }
    for (const service of republishers) {
      const result = await runNode([path.join('dist/apps', service, 'main.js'), 'republish'], {
        DATABASE_URL: databases[service],
        REDIS_URL: redisUrl,
        KEY_PREFIX: keyPrefix,
        LOG_LEVEL: 'warn',
      });
      if (result.code !== 0) throw new Error(`${service} republish failed (exit ${result.code}): ${result.stderr.trim()}`);
      say(`${service}: ${result.stdout.trim()}`);
    }
    const databaseArgs = Object.entries(databases).flatMap(([service, url]) => ['--database', `${service}=${url}`]);
    const status = await runNode(
      ['tools/events/events.cjs', 'status', '--wait', String(waitSeconds), '--redis-url', redisUrl, '--prefix', keyPrefix, ...databaseArgs],
      {},
    );
    process.stdout.write(status.stdout);
    if (status.code !== 0) say(`the consumers had not caught up after ${waitSeconds} s; see npm run events -- status`);
    return { republished: true, caughtUp: status.code === 0, ...(pending > 0 ? {} : { profilesOnly: true }) };
  } catch (e) {
    say(`the event consumers were not backfilled (${e instanceof Error ? e.message : e}); retry by restarting, or run each producer's republish command`);
    return { republished: false, caughtUp: false };
  }
}

/**
 * The consumers of profile.updated (those with a database in `databases`) that hold fewer profiles
 * than profile-service: `[{ service, held, total }]`. One count per database; a database whose
 * consumer has not migrated yet is left out.
 */
async function consumersMissingProfiles(databases) {
  const total = await count(databases['profile-service'], 'SELECT count(*)::int AS n FROM profiles');
  if (total === 0) return [];
  const lagging = [];
  for (const service of PROFILE_CONSUMERS) {
    if (!databases[service]) continue;
    const held = await count(databases[service], "SELECT count(*)::int AS n FROM applied_version WHERE aggregate_type = 'profile'").catch(() => null);
    if (held !== null && held < total) lagging.push({ service, held, total });
  }
  return lagging;
}

async function count(url, sql) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows[0].n;
  } finally {
    await client.end();
  }
}

/** Profiles of profile-service that no user.registered/user.verified event has reached. */
async function membersNotDelivered(profileDbUrl) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: profileDbUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT count(*)::int AS n FROM profiles p
        WHERE NOT EXISTS (SELECT 1 FROM applied_version v WHERE v.aggregate_type = 'user' AND v.aggregate_id = p.user_id::text)`,
    );
    return rows[0].n;
  } finally {
    await client.end();
  }
}

function runNode(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * After the backfill of a first start: fits matching-service's scoring model once on the seeded
 * swipe history (`node dist/apps/matching-service/main.js refit`), so Discover ranks with what the
 * model learned instead of the population prior until the scheduled refit runs. `databaseUrl` is
 * matching-service's database. Resolves true when the command succeeded; a failure is reported,
 * never fatal.
 */
export async function refitScoringModel({ databaseUrl, redisUrl, keyPrefix }) {
  const say = (line) => process.stdout.write(`[mate] ${line}\n`);
  say('fitting the scoring model on the seeded swipe history...');
  try {
    const result = await runNode([path.join('dist/apps/matching-service/main.js'), 'refit'], {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      KEY_PREFIX: keyPrefix,
      LOG_LEVEL: 'warn',
    });
    if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr.trim()}`);
    say(`matching-service: ${result.stdout.trim()}`);
    return true;
  } catch (e) {
    say(`the scoring model was not fitted (${e instanceof Error ? e.message : e}); the scheduled refit will do it`);
    return false;
  }
}

/** Matches read from matching-service per page by the pair backfill. */
const PAIR_BACKFILL_PAGE = 5_000;

/**
 * The matches safety-service never heard of: the seeder and the demo write matches without
 * match.created (it is the past), and an installation seeded before the seeder wrote safety's pair
 * rows (or before safety-service existed) has matches safety does not know, so unmatching them
 * answers 'You are not matched with this member'. When matching-service holds more matches than
 * safety-service has pairs holding a match (two counts: the whole cost of a start with nothing to
 * do), every match of matching's `match` table is offered to safety's `pair` table with the pair
 * version matching had applied (its `applied_version` of the pair), by the rule of safety's
 * recordMatch (lib/db.mjs recordPairMatches): a pair somebody blocks, a match that was unmatched,
 * or a match older than the pair's newest pair event is left alone, so the backfill may run while
 * the services run, as often as it likes. The counts differ for a moment too when an event is on
 * its way (match.created to safety, or a block to matching): the backfill then writes nothing
 * wrong, at the cost of one read of the matches.
 *
 * options: { matchingDbUrl, safetyDbUrl }. Resolves { backfilled, written } (`written`: the pair
 * rows that received their match); a failure is reported, never fatal.
 */
export async function backfillSafetyPairs({ matchingDbUrl, safetyDbUrl }) {
  const { recordPairMatches } = await import('./lib/db.mjs');
  return backfillMatches({
    matchingDbUrl,
    targetDbUrl: safetyDbUrl,
    service: 'safety-service',
    target: "safety-service's pairs",
    knownSql: 'SELECT count(*)::int AS n FROM pair WHERE match_id IS NOT NULL',
    // A page in one transaction: the pair rows are locked and written together.
    record: async (db, rows) => {
      await db.query('BEGIN');
      try {
        const written = await recordPairMatches(db, rows);
        await db.query('COMMIT');
        return written;
      } catch (e) {
        await db.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    },
    done: (written) => `safety-service: ${written} pair(s) received their match`,
  });
}

/**
 * The one loop of the two backfills above and below: when matching-service holds more matches
 * than `knownSql` counts in the target, every match of matching's `match` table is offered, a
 * page at a time, with the pair version matching had applied (`applied_version` of the pair, as
 * match.created would carry it), to `record(targetClient, rows)`, which answers how many it
 * wrote. A failure is reported, never fatal.
 */
async function backfillMatches({ matchingDbUrl, targetDbUrl, service, target, knownSql, record, done }) {
  const say = (line) => process.stdout.write(`[mate] ${line}\n`);
  if (!matchingDbUrl || !targetDbUrl) return { backfilled: false, written: 0 };
  try {
    const { default: pg } = await import('pg');
    const matching = new pg.Client({ connectionString: matchingDbUrl, application_name: 'mate-backfill' });
    const other = new pg.Client({ connectionString: targetDbUrl, application_name: 'mate-backfill' });
    await matching.connect();
    try {
      await other.connect();
      const held = (await matching.query('SELECT count(*)::int AS n FROM match')).rows[0].n;
      const known = (await other.query(knownSql)).rows[0].n;
      if (held <= known) return { backfilled: false, written: 0 };
      say(`backfilling ${target}: matching-service holds ${held} match(es), ${service} knows ${known}`);
      let written = 0;
      let after = '00000000-0000-0000-0000-000000000000';
      for (;;) {
        const { rows } = await matching.query(
          `SELECT m.id, m.user_a::text AS "userA", m.user_b::text AS "userB", m.created_at AS at,
                  coalesce(v.version, 0)::text AS "pairVersion"
             FROM match m
             LEFT JOIN applied_version v ON v.aggregate_type = 'pair' AND v.aggregate_id = m.user_a::text || ':' || m.user_b::text
            WHERE m.id > $1 ORDER BY m.id LIMIT $2`,
          [after, PAIR_BACKFILL_PAGE],
        );
        if (rows.length === 0) break;
        written += await record(other, rows);
        after = rows[rows.length - 1].id;
      }
      say(done(written));
      return { backfilled: true, written };
    } finally {
      await other.end().catch(() => undefined);
      await matching.end().catch(() => undefined);
    }
  } catch (e) {
    say(`${target} were not backfilled (${e instanceof Error ? e.message : e}); restart to retry`);
    return { backfilled: false, written: 0 };
  }
}

/**
 * The matches call-service never heard of: like safety's pairs (backfillSafetyPairs above), the
 * seeder and the demo write matches without match.created, and an installation seeded before the
 * seeder wrote call-service's matches (or before call-service existed) has matches call-service
 * does not know, so those pairs cannot call. When matching-service holds more matches than
 * call-service has live ones (its `call_match` rows that its rule, the kit's `liveKitMatchSql`,
 * lets call: two counts, the whole cost of a start with nothing to do), every match of matching's
 * `match` table is offered to call-service's `call_match` with the pair version matching had
 * applied (its `applied_version` of the pair), as match.created would carry it
 * (lib/db.mjs recordCallMatches: a match already known is left alone). Whether a pair may call is
 * decided by call-service when a call starts, from its pair state: a pair somebody blocks, a match
 * a pair event named as ended, or a match older than the pair's newest pair event stays not
 * callable, so the backfill may run while the services run, as often as it likes.
 *
 * options: { matchingDbUrl, callDbUrl }. Resolves { backfilled, written } (`written`: the matches
 * call-service received); a failure is reported, never fatal.
 */
export async function backfillCallMatches({ matchingDbUrl, callDbUrl }) {
  const { recordCallMatches } = await import('./lib/db.mjs');
  return backfillMatches({
    matchingDbUrl,
    targetDbUrl: callDbUrl,
    service: 'call-service',
    target: "call-service's matches",
    knownSql: LIVE_CALL_MATCHES_SQL,
    record: recordCallMatches,
    done: (written) => `call-service: ${written} match(es) received`,
  });
}

/**
 * call-service's matches it lets call: the kit's rule for a live match over its pair projection
 * (libs/server-kit pair-states.ts liveKitMatchSql, on `kit_pair` and `kit_ended_match`, ADR 0030),
 * which this plain-Node launcher cannot import; the seeder's tests check the two agree on the
 * demo's pairs.
 */
const LIVE_CALL_MATCHES_SQL = `
SELECT count(*)::int AS n FROM call_match m
  LEFT JOIN kit_pair pair ON pair.member_a = m.member_a AND pair.member_b = m.member_b
 WHERE NOT coalesce(cardinality(pair.blocked_by) > 0, false)
   AND NOT EXISTS (SELECT 1 FROM kit_ended_match e WHERE e.match_id = m.match_id)
   AND CASE WHEN m.pair_version IS NOT NULL AND (pair.version IS NOT NULL OR pair.ended_before IS NULL)
            THEN m.pair_version >= coalesce(pair.version, 0)
            ELSE (pair.ended_before IS NULL OR m.matched_at > pair.ended_before) END`;

/**
 * admin-service's analytics history for an installation seeded before the seeder wrote one
 * (lib/analytics.mjs backfillAnalyticsHistory; README "Analytics history"). options: { adminDbUrl,
 * authDbUrl, profileDbUrl, matchingDbUrl, chatDbUrl }. Resolves { backfilled, written }; a
 * failure is reported, never fatal.
 */
export async function backfillAnalytics(options) {
  const { backfillAnalyticsHistory } = await import('./lib/analytics.mjs');
  return backfillAnalyticsHistory(options);
}
