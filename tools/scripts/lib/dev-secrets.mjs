// The secrets of a local installation (`npm start`): the JWT signing secret and the internal
// credential (ADR 0009). The kit's defaults (`dev-only-...-change-me`) are published in this
// repository, so a token signed with the default JWT secret passed a running `npm start`'s gateway.
// Made once, on the first start, with node:crypto, and kept in the local data folder (git-ignored),
// readable by this user only; never printed. A variable set in the environment wins. Production
// never comes here: it refuses the published defaults at start-up (`loadEnv`).
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureVapidKeys } from './vapid-keys.mjs';

/** The secrets made here, and the kit's published defaults they replace (never to be used). */
export const DEV_SECRET_NAMES = ['JWT_SECRET', 'INTERNAL_TOKEN'];
export const PUBLISHED_DEFAULTS = {
  JWT_SECRET: 'dev-only-jwt-secret-change-me',
  INTERNAL_TOKEN: 'dev-only-internal-token-change-me',
};
/** 32 random bytes, hex: long enough for production's own check (at least 32 characters). */
const newSecret = () => randomBytes(32).toString('hex');
const isKept = (value) => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);

/**
 * The secrets to run with: each from the environment when set there, else the one kept at
 * `<dataDir>/secrets/dev-secrets.json`, made now when there is none (or it is unreadable or not
 * one of ours). Returns `{ env: { JWT_SECRET, INTERNAL_TOKEN }, created: [names made now] }`.
 */
export function ensureDevSecrets(dataDir, env = process.env) {
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, 'dev-secrets.json');
  let kept = {};
  if (existsSync(file)) {
    try {
      kept = JSON.parse(readFileSync(file, 'utf8')) ?? {};
    } catch {
      // unreadable: replaced below (sessions signed with the old secret sign in again)
    }
  }
  const result = {};
  const created = [];
  const toKeep = {};
  for (const name of DEV_SECRET_NAMES) {
    toKeep[name] = isKept(kept[name]) ? kept[name] : undefined;
    if (!toKeep[name] && !env[name]) {
      toKeep[name] = newSecret();
      created.push(name);
    }
    result[name] = env[name] || toKeep[name];
  }
  if (created.length) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const content = Object.fromEntries(Object.entries(toKeep).filter(([, v]) => v));
    writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
    // writeFileSync's mode applies only to a new file.
    chmodSync(file, 0o600);
  }
  return { env: result, created };
}

/**
 * Everything secret `npm start` gives the platform, from the environment or `<dataDir>/secrets`:
 * `extraEnv` for every process (the gateway and each service: one JWT secret, one internal
 * credential per deployment), `serviceEnv` for the one service that needs a secret alone
 * (notification-service's VAPID pair), and the names made on this start.
 */
export function npmStartSecrets(dataDir, env = process.env, { ensureVapid = ensureVapidKeys } = {}) {
  const secrets = ensureDevSecrets(dataDir, env);
  const vapid = ensureVapid(dataDir, env);
  return {
    extraEnv: secrets.env,
    serviceEnv: { 'notification-service': { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey } },
    created: [...secrets.created, ...(vapid.created ? ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'] : [])],
  };
}
