// The accounts the web audit signs in as, made through the public API as a person would (sign-up,
// the verification link from the mail catcher, onboarding, photos, a Like each way, messages over
// the socket): a member with a finished profile and three photos, a match of hers with a
// conversation (so /chat/{id} shows messages), two more members in her Discover queue (so
// Discover shows a card), and an admin (made one by auth-service's own
// grant-admin command, as `npm run admin:grant` does). Works against any running platform: the
// e2e stage's processes or containers, and bench:web's own.
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { io } from 'socket.io-client';
import { renderUpload } from '../../seed/lib/photos.mjs';
import { Rng } from '../../seed/lib/random.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** A city and an age band no e2e journey's members use, so only these two meet in Discover. */
const CITY = 'Anchorage, AK';
const AGES = [33, 35];
/** How long a step may wait for the services to hear of an event (verification, onboarding, the match). */
const PROPAGATION_TIMEOUT_MS = 60_000;
const POLL_MS = 200;
const SUGGESTIONS_POLL_MS = 2_500;
/** The conversation the chat screen shows: enough lines to fill a phone's screen. */
const CONVERSATION = [
  ['partner', 'Hi! I saw you hike too. Which trail was the photo from?'],
  ['member', 'Flattop, last weekend. The view from the top is worth the scramble.'],
  ['partner', 'I have been meaning to go. Is it busy in the morning?'],
  ['member', 'Not before eight. Coffee at the trailhead first?'],
  ['partner', 'Deal. Saturday at seven?'],
  ['member', 'See you there!'],
];

/** Members in her Discover queue (who fit her and whom she fits), so the screen shows a card. */
const DISCOVER_CANDIDATES = ['Eli', 'Sam'];

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

function api(gatewayUrl) {
  return async (method, route, { token, body, form } = {}) => {
    try {
      const res = await fetch(`${gatewayUrl}${route}`, {
        method,
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: form ?? (body !== undefined ? JSON.stringify(body) : undefined),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    } catch (e) {
      // A connection the gateway closed (an upstream that failed mid-upload): `until` tries again.
      return { status: 0, body: { error: e.cause?.message ?? e.message } };
    }
  };
}

/** Repeats `attempt` until `done(answer)` holds; throws with the last answer after the timeout. */
async function until(what, attempt, done, intervalMs = POLL_MS) {
  const deadline = Date.now() + PROPAGATION_TIMEOUT_MS;
  for (;;) {
    const answer = await attempt();
    if (done(answer)) return answer;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(answer).slice(0, 300)} after ${PROPAGATION_TIMEOUT_MS / 1000} s`);
    await pause(intervalMs);
  }
}

/**
 * Waits until matching-service suggests every one of `ids` to `member`. Asked every
 * SUGGESTIONS_POLL_MS: matching-service allows a member 30 suggestion loads a minute, and the
 * audit's own visit to Discover must not be refused.
 */
function untilSuggested(call, member, ids, what) {
  return until(what, () => call('GET', '/api/matches/suggestions?limit=50', member), (s) => s.status === 200 && ids.every((id) => s.body.some((x) => x.user.id === id)), SUGGESTIONS_POLL_MS);
}

const ok = (...statuses) => (answer) => statuses.includes(answer.status);

async function verificationToken(maildevUrl, email) {
  const answer = await until(
    `the verification email to ${email}`,
    async () => {
      const emails = await (await fetch(`${maildevUrl}/email`)).json();
      const token = emails
        .filter((e) => e.to?.some((t) => t.address.toLowerCase() === email))
        .map((e) => /verify-email\?token=([A-Za-z0-9_-]+)/.exec(`${e.text ?? ''} ${e.html ?? ''}`)?.[1])
        .find(Boolean);
      return { token };
    },
    (a) => Boolean(a.token),
  );
  return answer.token;
}

/** Signs up, verifies from the real email and signs in: `{ id, email, password, name, token }`. */
async function signUp(call, maildevUrl, { label, name }) {
  const email = `${label}-${randomBytes(4).toString('hex')}@web-audit.mate.test`;
  const password = `web audit ${randomBytes(6).toString('hex')}`;
  const registered = await call('POST', '/api/auth/register', { body: { email, password, name } });
  if (registered.status !== 201) throw new Error(`register ${email}: ${registered.status} ${JSON.stringify(registered.body)}`);
  const verified = await call('POST', '/api/verification/verify', { body: { token: await verificationToken(maildevUrl, email) } });
  if (verified.status !== 200) throw new Error(`verify ${email}: ${verified.status}`);
  return { email, password, name, ...(await signIn(call, email, password)) };
}

async function signIn(call, email, password) {
  const login = await call('POST', '/api/auth/login', { body: { email, password } });
  if (login.status !== 200) throw new Error(`sign in ${email}: ${login.status} ${JSON.stringify(login.body)}`);
  return { id: login.body.user.id, token: login.body.token };
}

/** A finished profile: details, photos drawn by the seeder's artwork, preferences, onboarding. */
async function onboard(call, member, { age, gender, seeks, photos, bio }) {
  const { token } = member;
  await until('profile-service hears of the verification', () => call('GET', `/api/profile/me?t=${Date.now()}`, { token }), (a) => a.body?.isVerified === true);
  await until('profile details', () =>
    call('PUT', '/api/profile/me', {
      token,
      body: { height: 170, occupation: 'Park Ranger', education: "Bachelor's Degree", smoking: 'never', drinking: 'socially', exercise: 'regularly', pets: 'dog' },
    }), ok(200));
  for (const [i, kind] of photos.entries()) {
    const picture = await renderUpload(kind, new Rng(`web-audit-${member.name}`, i), {
      png: true,
      presentation: gender === 'female' ? 'feminine' : 'masculine',
    });
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(picture)], { type: 'image/png' }), `photo-${i}.png`);
    await until(`photo ${i + 1} of ${member.name}`, () => call('POST', '/api/photos/upload?context=onboarding', { token, form }), ok(201));
  }
  const [minAge, maxAge] = AGES;
  await until('preferences', () => call('PUT', '/api/preferences/me', { token, body: { minAge, maxAge, maxDistance: 50, genderPreference: [seeks] } }), ok(200));
  const onboarding = { name: member.name, age, gender, bio, interests: ['Hiking', 'Coffee', 'Photography', 'Travel'], lookingFor: 'long-term', location: CITY };
  await until('onboarding', () => call('POST', '/api/profile/me/complete-onboarding', { token, body: onboarding }), ok(200));
}

/** Each likes the other once matching-service suggests them to each other; resolves when chat-service opened their conversation. */
async function match(call, a, b) {
  await untilSuggested(call, a, [b.id], `${b.name} in ${a.name}'s Discover`);
  await untilSuggested(call, b, [a.id], `${a.name} in ${b.name}'s Discover`);
  await call('POST', `/api/matches/like/${b.id}`, a);
  const second = await call('POST', `/api/matches/like/${a.id}`, b);
  if (!second.body?.matched) throw new Error(`the second Like made no match: ${JSON.stringify(second.body)}`);
  await until(`their conversation`, () => call('GET', '/api/chat/conversations', a), (c) => c.status === 200 && c.body.some((x) => x.userId === b.id));
}

async function connect(gatewayUrl, member) {
  const socket = io(gatewayUrl, { path: '/socket.io', auth: { token: member.token }, transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise((resolve, reject) => {
    socket.once('connected', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

/** The conversation, line by line over the socket as the app sends them (each acknowledged before the next). */
async function converse(gatewayUrl, member, partner) {
  const sockets = { member: await connect(gatewayUrl, member), partner: await connect(gatewayUrl, partner) };
  const people = { member, partner };
  try {
    for (const [from, content] of CONVERSATION) {
      const to = from === 'member' ? partner : member;
      const ack = await sockets[from].timeout(15_000).emitWithAck('send_message', { recipientId: to.id, content, clientId: randomUUID() });
      if (ack?.error) throw new Error(`${people[from].name} could not send a message: ${ack.error}`);
    }
  } finally {
    sockets.member.disconnect();
    sockets.partner.disconnect();
  }
}

/** Makes `email` an admin with auth-service's grant-admin command against the platform's auth database. */
function grantAdmin(email, { authDbUrl, redisUrl, keyPrefix }) {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'dist/apps/auth-service/main.js'), 'grant-admin', email], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: authDbUrl, REDIS_URL: redisUrl, KEY_PREFIX: keyPrefix, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`grant-admin ${email} failed: ${result.stderr}`);
}

/**
 * The audit's accounts. options: { gatewayUrl, maildevUrl, authDbUrl, redisUrl, keyPrefix } (the
 * last three for grant-admin). Resolves `{ member: {email, password}, chatWith: <partner id>,
 * admin: {email, password} }`; every session made here is signed out again.
 */
export async function prepareAuditAccounts({ gatewayUrl, maildevUrl, authDbUrl, redisUrl, keyPrefix }) {
  const call = api(gatewayUrl);
  const [member, partner, admin, ...candidates] = await Promise.all([
    signUp(call, maildevUrl, { label: 'member', name: 'Nora' }),
    signUp(call, maildevUrl, { label: 'partner', name: 'Theo' }),
    signUp(call, maildevUrl, { label: 'admin', name: 'Audit Admin' }),
    ...DISCOVER_CANDIDATES.map((name) => signUp(call, maildevUrl, { label: 'candidate', name })),
  ]);
  await Promise.all([
    ...candidates.map((candidate) =>
      onboard(call, candidate, { age: 34, gender: 'male', seeks: 'female', photos: ['portrait'], bio: `${candidate.name} bakes sourdough and knows every trail in the valley.` }),
    ),
    onboard(call, member, {
      age: 34,
      gender: 'female',
      seeks: 'male',
      photos: ['portrait', 'portrait', 'city'],
      bio: 'Trail runner and amateur photographer. Looking for someone who likes early mornings and long views.',
    }),
    onboard(call, partner, { age: 34, gender: 'male', seeks: 'female', photos: ['portrait'], bio: 'Ranger in the summer, ski patrol in the winter.' }),
  ]);
  // Discover opens on a card with its photo, as for a member with a queue, not on an empty queue.
  await untilSuggested(call, member, [partner.id, ...candidates.map((c) => c.id)], `${partner.name} and the candidates in ${member.name}'s Discover`);
  await match(call, member, partner);
  await converse(gatewayUrl, member, partner);
  for (const candidate of candidates) await call('POST', '/api/auth/logout', candidate);
  grantAdmin(admin.email, { authDbUrl, redisUrl, keyPrefix });
  await call('POST', '/api/auth/logout', admin);
  await call('POST', '/api/auth/logout', member);
  await call('POST', '/api/auth/logout', partner);
  return { member: { email: member.email, password: member.password }, chatWith: partner.id, admin: { email: admin.email, password: admin.password } };
}
