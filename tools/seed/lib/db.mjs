// The SQL of the seeder: one multi-row INSERT per table and batch, columns passed as arrays and
// spread by unnest (lists travel as '|'-joined text and come back through string_to_array).
import pg from 'pg';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of `database` on the server of `url` (what tools/scripts/lib/platform.mjs does). */
export function withDatabase(url, database) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function connect(url) {
  const client = new pg.Client({ connectionString: url, application_name: 'mate-seed' });
  try {
    await client.connect();
  } catch (e) {
    if (/** @type {{ code?: string }} */ (e).code === '3D000') {
      throw new Error(`database ${new URL(url).pathname.slice(1)} does not exist: create and migrate it first (npm run migrate, or npm start)`);
    }
    throw e;
  }
  return client;
}

/** Throws a helpful error when a service's migrations have not run yet. */
export async function requireTables(client, tables, what) {
  const { rows } = await client.query('SELECT t, to_regclass(t) IS NOT NULL AS present FROM unnest($1::text[]) AS t', [tables]);
  const missing = rows.filter((r) => !r.present).map((r) => r.t);
  if (missing.length) {
    throw new Error(
      `${what} database has no table ${missing.join(', ')}: apply the migrations first (npm run migrate, or npm start)`,
    );
  }
}

export async function hasProfiles(profileDb) {
  const { rows } = await profileDb.query('SELECT EXISTS (SELECT 1 FROM profiles) AS any');
  return rows[0].any;
}

/** The highest member number of earlier seeded accounts, so a new run continues after it. */
export async function lastDemoNumber(authDb, domain) {
  const { rows } = await authDb.query(
    `SELECT coalesce(max(substring(email FROM '\\.([0-9]+)@')::bigint), 0) AS n
       FROM users WHERE lower(email) LIKE '%@' || $1`,
    [domain],
  );
  return Number(rows[0].n);
}

const iso = (d) => d.toISOString();
const list = (values) => values.join('|');

export async function insertUsers(authDb, members, passwordHash) {
  await authDb.query(
    `INSERT INTO users (id, email, password_hash, name, age, role, email_verified_at, created_at, updated_at)
     SELECT id, email, $2, name, age, 'member', verified, created, updated
       FROM unnest($1::uuid[], $3::text[], $4::text[], $5::int[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[])
         AS t(id, email, name, age, verified, created, updated)`,
    [
      members.map((m) => m.userId),
      passwordHash,
      members.map((m) => m.email),
      members.map((m) => m.accountName),
      members.map((m) => m.age),
      members.map((m) => iso(m.verifiedAt)),
      members.map((m) => iso(m.createdAt)),
      members.map((m) => iso(m.verifiedAt)),
    ],
  );
}

export async function insertProfiles(profileDb, members) {
  await profileDb.query(
    `INSERT INTO profiles (id, user_id, name, age, gender, bio, location, height, occupation, education, looking_for,
                           interests, is_verified, onboarding_completed, onboarding_skipped,
                           location_lat, location_lng, location_resolved, created_at, updated_at,
                           smoking, drinking, exercise, pets)
     SELECT id, user_id, name, age, gender, bio, location, height, occupation, education, looking_for,
            string_to_array(interests, '|'), true, true, false, lat, lng, true, created, updated,
            smoking, drinking, exercise, pets
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::int[],
                   $9::text[], $10::text[], $11::text[], $12::text[], $13::float8[], $14::float8[],
                   $15::timestamptz[], $16::timestamptz[], $17::text[], $18::text[], $19::text[], $20::text[])
         AS t(id, user_id, name, age, gender, bio, location, height, occupation, education, looking_for,
              interests, lat, lng, created, updated, smoking, drinking, exercise, pets)`,
    [
      members.map((m) => m.profileId),
      members.map((m) => m.userId),
      members.map((m) => m.name),
      members.map((m) => m.age),
      members.map((m) => m.gender),
      members.map((m) => m.bio),
      members.map((m) => m.location),
      members.map((m) => m.height),
      members.map((m) => m.occupation),
      members.map((m) => m.education),
      members.map((m) => m.lookingFor),
      members.map((m) => list(m.interests)),
      members.map((m) => m.lat),
      members.map((m) => m.lng),
      members.map((m) => iso(m.createdAt)),
      members.map((m) => iso(m.updatedAt)),
      members.map((m) => m.smoking),
      members.map((m) => m.drinking),
      members.map((m) => m.exercise),
      members.map((m) => m.pets),
    ],
  );
}

/** Photo rows of members whose files are stored (`photo.sizes` set), approved. */
export async function insertPhotos(profileDb, members, urlOf, storageKeyOf) {
  const rows = members.flatMap((m) => m.photos.filter((p) => p.sizes).map((p) => ({ m, p })));
  if (rows.length === 0) return 0;
  await profileDb.query(
    `INSERT INTO photos (id, profile_id, user_id, url, is_primary, "order", created_at, storage_key, sizes,
                         moderation_status, moderated_at)
     SELECT id, profile_id, user_id, url, is_primary, ord, created, storage_key, sizes::jsonb, 'approved', created
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::bool[], $6::int[], $7::timestamptz[],
                   $8::text[], $9::text[])
         AS t(id, profile_id, user_id, url, is_primary, ord, created, storage_key, sizes)`,
    [
      rows.map(({ p }) => p.id),
      rows.map(({ m }) => m.profileId),
      rows.map(({ m }) => m.userId),
      rows.map(({ p }) => urlOf(p.id)),
      rows.map(({ p }) => p.isPrimary),
      rows.map(({ p }) => p.order),
      rows.map(({ p }) => iso(p.createdAt)),
      rows.map(({ p }) => storageKeyOf(p.id)),
      rows.map(({ p }) => JSON.stringify(p.sizes)),
    ],
  );
  return rows.length;
}

export async function insertPreferences(profileDb, members) {
  const p = members.map((m) => m.preferences);
  await profileDb.query(
    `INSERT INTO preferences (user_id, min_age, max_age, max_distance, gender_preference, interests, dealbreakers,
                              min_height, max_height, education_preference, relationship_goal_preference,
                              smoking_preference, drinking_preference, exercise_preference, pets_preference,
                              required_interests, created_at, updated_at)
     SELECT user_id, min_age, max_age, max_distance, string_to_array(gp, '|'), string_to_array(i, '|'),
            string_to_array(d, '|'), min_h, max_h, string_to_array(e, '|'), string_to_array(r, '|'),
            string_to_array(s, '|'), string_to_array(dr, '|'), string_to_array(ex, '|'), string_to_array(pe, '|'),
            string_to_array(ri, '|'), at, at
       FROM unnest($1::uuid[], $2::int[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::int[],
                   $9::int[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
                   $16::text[], $17::timestamptz[])
         AS t(user_id, min_age, max_age, max_distance, gp, i, d, min_h, max_h, e, r, s, dr, ex, pe, ri, at)`,
    [
      members.map((m) => m.userId),
      p.map((x) => x.minAge),
      p.map((x) => x.maxAge),
      p.map((x) => x.maxDistance),
      p.map((x) => list(x.genderPreference)),
      p.map((x) => list(x.interests)),
      p.map((x) => list(x.dealbreakers)),
      p.map((x) => x.minHeight),
      p.map((x) => x.maxHeight),
      p.map((x) => list(x.educationPreference)),
      p.map((x) => list(x.relationshipGoalPreference)),
      p.map((x) => list(x.smokingPreference)),
      p.map((x) => list(x.drinkingPreference)),
      p.map((x) => list(x.exercisePreference)),
      p.map((x) => list(x.petsPreference)),
      p.map((x) => list(x.requiredInterests)),
      members.map((m) => iso(m.updatedAt)),
    ],
  );
}

/** Rows of the swipe history per INSERT (two uuid arrays, a bool and a timestamp array each). */
const HISTORY_ROWS_PER_INSERT = 20_000;

/** matching-service's `swipe` rows of the history (history.mjs), in slices. */
export async function insertSwipes(matchingDb, swipes) {
  for (let i = 0; i < swipes.length; i += HISTORY_ROWS_PER_INSERT) {
    const slice = swipes.slice(i, i + HISTORY_ROWS_PER_INSERT);
    await matchingDb.query(
      `INSERT INTO swipe (swiper_id, target_id, liked, created_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::bool[], $4::timestamptz[])`,
      [slice.map((s) => s.swiperId), slice.map((s) => s.targetId), slice.map((s) => s.liked), slice.map((s) => iso(s.at))],
    );
  }
}

/** matching-service's `match` rows of the history: one per mutual like, user_a < user_b. */
export async function insertMatches(matchingDb, matches) {
  for (let i = 0; i < matches.length; i += HISTORY_ROWS_PER_INSERT) {
    const slice = matches.slice(i, i + HISTORY_ROWS_PER_INSERT);
    await matchingDb.query(
      `INSERT INTO match (id, user_a, user_b, created_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[])`,
      [slice.map((m) => m.id), slice.map((m) => m.userA), slice.map((m) => m.userB), slice.map((m) => iso(m.at))],
    );
  }
}

/** Messages per INSERT (eight arrays each). */
const MESSAGE_ROWS_PER_INSERT = 10_000;

/**
 * chat-service's `conversation` rows of the seeded matches (conversations.mjs), open, with their
 * last message, read sequences and unread counters, and their `message` rows (seq 1..n).
 */
export async function insertConversations(chatDb, conversations) {
  for (let i = 0; i < conversations.length; i += HISTORY_ROWS_PER_INSERT) {
    const slice = conversations.slice(i, i + HISTORY_ROWS_PER_INSERT);
    const last = (c) => c.messages[c.messages.length - 1] ?? null;
    await chatDb.query(
      `INSERT INTO conversation (id, member_a, member_b, match_id, matched_at, last_seq, last_message_id, last_message_at,
                                 a_read_seq, b_read_seq, a_unread, b_unread)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::timestamptz[], $6::int[], $7::uuid[],
                            $8::timestamptz[], $9::int[], $10::int[], $11::int[], $12::int[])`,
      [
        slice.map((c) => c.id),
        slice.map((c) => c.memberA),
        slice.map((c) => c.memberB),
        slice.map((c) => c.matchId),
        slice.map((c) => iso(c.matchedAt)),
        slice.map((c) => c.messages.length),
        slice.map((c) => last(c)?.id ?? null),
        slice.map((c) => (last(c) ? iso(last(c).at) : null)),
        slice.map((c) => c.aReadSeq),
        slice.map((c) => c.bReadSeq),
        slice.map((c) => c.aUnread),
        slice.map((c) => c.bUnread),
      ],
    );
  }
  const messages = conversations.flatMap((c) => c.messages.map((m) => ({ c, m })));
  for (let i = 0; i < messages.length; i += MESSAGE_ROWS_PER_INSERT) {
    const slice = messages.slice(i, i + MESSAGE_ROWS_PER_INSERT);
    await chatDb.query(
      `INSERT INTO message (id, conversation_id, seq, sender_id, recipient_id, client_id, content, created_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::uuid[], $5::uuid[], $6::text[], $7::text[], $8::timestamptz[])`,
      [
        slice.map(({ m }) => m.id),
        slice.map(({ c }) => c.id),
        slice.map(({ m }) => m.seq),
        slice.map(({ m }) => m.senderId),
        slice.map(({ m }) => m.recipientId),
        slice.map(({ m }) => m.clientId),
        slice.map(({ m }) => m.content),
        slice.map(({ m }) => iso(m.at)),
      ],
    );
  }
  return messages.length;
}

/** Pairs per statement when safety-service's pair rows are written (five arrays each). */
const PAIR_ROWS_PER_INSERT = 5_000;

/**
 * safety-service's `pair` rows of matches made without `match.created` (the seeded history, the
 * demo member's past, and the backfill of matching-service's `match` table in ../hook.mjs), so
 * safety knows each pair's current match as if the event had reached it (unmatch, and a block's
 * `endedMatchId`). `matches`: `{ id, userA, userB, at, pairVersion? }` with `userA < userB`;
 * `pairVersion` is the pair version matching had applied when it held the match (0 when absent).
 *
 * The rule of safety's `recordMatch` (ADR 0014), for rows written from outside: the pairs' rows
 * that exist are locked first (in pair id order) by their own statement, so the next one sees
 * every committed pair event; a pair without a row gets one; a pair with a row gets the match only
 * when it holds none, nobody blocks, the match is not the one that ended, and no pair event newer
 * than `pairVersion` exists. So a re-run, or a backfill racing a block or an unmatch, changes
 * nothing it should not. Run it inside a transaction (the locks are held until it ends). Answers
 * how many rows were written.
 */
export async function recordPairMatches(safetyDb, matches) {
  let written = 0;
  for (let i = 0; i < matches.length; i += PAIR_ROWS_PER_INSERT) {
    const slice = matches.slice(i, i + PAIR_ROWS_PER_INSERT);
    const pairIds = slice.map((m) => `${m.userA}:${m.userB}`);
    await safetyDb.query('SELECT 1 FROM pair WHERE pair_id = ANY($1::text[]) ORDER BY pair_id FOR UPDATE', [pairIds]);
    const result = await safetyDb.query(
      `INSERT INTO pair (pair_id, member_a, member_b, match_id, matched_at)
       SELECT t.pair_id, t.a, t.b, t.id, t.at
         FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::uuid[], $5::timestamptz[], $6::bigint[]) AS t(pair_id, a, b, id, at, v)
        WHERE t.v >= coalesce((SELECT version FROM aggregate_version WHERE aggregate_type = 'pair' AND aggregate_id = t.pair_id), 0)
       ON CONFLICT (pair_id) DO UPDATE SET match_id = EXCLUDED.match_id, matched_at = EXCLUDED.matched_at, updated_at = now()
        WHERE pair.match_id IS NULL
          AND cardinality(pair.blocked_by) = 0
          AND pair.ended_match_id IS DISTINCT FROM EXCLUDED.match_id`,
      [
        pairIds,
        slice.map((m) => m.userA),
        slice.map((m) => m.userB),
        slice.map((m) => m.id),
        slice.map((m) => iso(m.at)),
        slice.map((m) => m.pairVersion ?? 0),
      ],
    );
    written += result.rowCount ?? 0;
  }
  return written;
}

/** Matches per statement when call-service's match rows are written (six arrays each). */
const CALL_MATCH_ROWS_PER_INSERT = 5_000;

/**
 * call-service's `call_match` rows of matches made without `match.created` (the seeded history,
 * the demo member's past, and the backfill of matching-service's `match` table in ../hook.mjs), so
 * call-service knows each match as if the event had reached it (without it the pair may not call).
 * `matches`: `{ id, userA, userB, at, pairVersion? }` with `userA < userB`; `pairVersion` is the pair
 * version matching had applied when it held the match (0 when absent).
 *
 * The rule of call-service's `recordMatch` (apps/call-service/src/call/pair.repository.ts RECORD_MATCH_SQL):
 * a match is a fact written once (`ON CONFLICT (match_id) DO NOTHING`) with the pair version it was
 * made under; whether the pair may call is decided when a call starts (`liveMatch`: nobody blocks,
 * no pair event named the match as ended, no pair event newer than that version was applied). So a
 * row written here for a match that a block, an unmatch or a newer pair event already ended (or
 * will end) stays not callable, and a re-run changes nothing. Answers how many rows were written.
 */
export async function recordCallMatches(callDb, matches) {
  let written = 0;
  for (let i = 0; i < matches.length; i += CALL_MATCH_ROWS_PER_INSERT) {
    const slice = matches.slice(i, i + CALL_MATCH_ROWS_PER_INSERT);
    const result = await callDb.query(
      `INSERT INTO call_match (match_id, member_a, member_b, matched_at, pair_version)
       SELECT t.id, t.a, t.b, t.at, t.v
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[], $5::int[]) AS t(id, a, b, at, v)
       ON CONFLICT (match_id) DO NOTHING`,
      [
        slice.map((m) => m.id),
        slice.map((m) => m.userA),
        slice.map((m) => m.userB),
        slice.map((m) => iso(m.at)),
        slice.map((m) => Number(m.pairVersion ?? 0)),
      ],
    );
    written += result.rowCount ?? 0;
  }
  return written;
}
