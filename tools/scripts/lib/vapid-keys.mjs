// The web push (VAPID) key pair of a local installation (`npm start`; ADR 0017). Made once, on
// the first start, and kept in the local data folder (git-ignored), readable by this user only;
// never printed. Production reads the pair from a Secret instead (k8s/README.md).
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function isKeyPair(keys) {
  return (
    typeof keys?.publicKey === 'string' &&
    typeof keys?.privateKey === 'string' &&
    BASE64URL.test(keys.publicKey) &&
    BASE64URL.test(keys.privateKey) &&
    Buffer.from(keys.publicKey, 'base64url').length === 65 &&
    Buffer.from(keys.privateKey, 'base64url').length === 32
  );
}

/**
 * The pair to run with: VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY from the environment when both are
 * set, else the one kept at `<dataDir>/secrets/vapid.json`, made now when there is none (or it is
 * unreadable). `created` says whether it was made now.
 */
export function ensureVapidKeys(dataDir, env = process.env) {
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, created: false };
  }
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, 'vapid.json');
  if (existsSync(file)) {
    try {
      const kept = JSON.parse(readFileSync(file, 'utf8'));
      if (isKeyPair(kept)) return { publicKey: kept.publicKey, privateKey: kept.privateKey, created: false };
    } catch {
      // unreadable: replaced below (browsers subscribed with the old key subscribe again)
    }
  }
  const { generateVAPIDKeys } = require('web-push');
  const { publicKey, privateKey } = generateVAPIDKeys();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify({ publicKey, privateKey }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { publicKey, privateKey, created: true };
}
