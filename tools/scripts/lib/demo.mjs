// Demo accounts for `npm start`: a member who is onboarded like a person would be (full profile in
// a seeded city, photos, preferences) and a verified admin; then a few seeded members who like the
// demo member, so the demo's first likes in Discover make a match. Everything goes through the
// public API (and the verification link from the mail catcher), the same way a person would, so
// the data is consistent across every service. Each step is skipped when already done, so later
// starts change nothing.
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
 * Once matching-service holds the demo member (her Discover queue answers), the first few
 * seeded members of that queue sign in (they share the demo password; their emails are in
 * auth-service's `users`) and like her. Skipped when someone has liked her already.
 */
async function likeDemoMember(gatewayUrl, authDbUrl, demo) {
  const api = (path, method, token) => call(`${gatewayUrl}${path}`, method, { token });
  const stats = await until([200], () => api('/api/matches/stats', 'GET', demo.token), 'demo match stats');
  if (stats.body.likesReceived > 0) return 0;
  const deadline = Date.now() + MATCHING_WAIT_MS;
  let queue = [];
  while (queue.length === 0) {
    const page = await api('/api/matches/suggestions?limit=20', 'GET', demo.token);
    if (page.status === 429) throw new Error(`matching-service limits the demo member's suggestion loads: ${page.body?.error}`);
    if (page.status === 200) queue = page.body;
    if (queue.length === 0) {
      if (Date.now() > deadline) throw new Error(`matching-service showed the demo member nobody within ${MATCHING_WAIT_MS / 1000} s`);
      await pause(MATCHING_POLL_MS);
    }
  }
  const [{ default: pg }, { EMAIL_DOMAIN }, { DEMO_PASSWORD }] = await Promise.all([
    import('pg'),
    import('../../seed/lib/population.mjs'),
    import('../../seed/lib/run.mjs'),
  ]);
  const db = new pg.Client({ connectionString: authDbUrl });
  await db.connect();
  let emails;
  try {
    // Seeded members only (they share the demo password), in queue order.
    const { rows } = await db.query(
      `SELECT u.email FROM unnest($1::uuid[]) WITH ORDINALITY AS q(id, n) JOIN users u ON u.id = q.id
        WHERE lower(u.email) LIKE '%@' || $2 ORDER BY q.n LIMIT $3`,
      [queue.map((s) => s.user.id), EMAIL_DOMAIN, ADMIRERS],
    );
    emails = rows.map((r) => r.email);
  } finally {
    await db.end();
  }
  let liked = 0;
  for (const email of emails) {
    const login = await call(`${gatewayUrl}/api/auth/login`, 'POST', { body: { email, password: DEMO_PASSWORD } });
    if (login.status !== 200) throw new Error(`seeded member ${email} could not sign in: ${login.body?.error ?? login.status}`);
    const like = await api(`/api/matches/like/${demo.userId}`, 'POST', login.body.token);
    await api('/api/auth/logout', 'POST', login.body.token);
    if (like.status !== 200 && like.status !== 201) throw new Error(`seeded member ${email} could not like the demo member: ${like.body?.error ?? like.status}`);
    liked++;
  }
  return liked;
}

/**
 * Prepares the demo member and admin. `authDbUrl` (auth-service's database) names the seeded
 * members who like the demo member. A failure is reported, never fatal.
 */
export async function createDemoAccounts({ gatewayUrl, maildevUrl, authDbUrl }) {
  try {
    const demo = await ensureAccount(gatewayUrl, maildevUrl, DEMO_ACCOUNTS.member);
    if (await onboardDemoMember(gatewayUrl, demo.token)) log(`demo member onboarded in ${DEMO_PROFILE.onboarding.location} with photos`);
    const liked = await likeDemoMember(gatewayUrl, authDbUrl, demo);
    if (liked) log(`${liked} seeded members in the demo member's Discover queue like her already: her first likes can match`);
    await call(`${gatewayUrl}/api/auth/logout`, 'POST', { token: demo.token });
  } catch (e) {
    log(`the demo member could not be prepared: ${e.message}`);
  }
  try {
    const admin = await ensureAccount(gatewayUrl, maildevUrl, DEMO_ACCOUNTS.admin);
    const skip = () => call(`${gatewayUrl}/api/profile/me/complete-onboarding`, 'POST', { token: admin.token });
    await until([200], skip, 'admin onboarding', { tries: 50 });
    await call(`${gatewayUrl}/api/auth/logout`, 'POST', { token: admin.token });
  } catch (e) {
    log(`the demo admin could not be prepared: ${e.message}`);
  }
}
