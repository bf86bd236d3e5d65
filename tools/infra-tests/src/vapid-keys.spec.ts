import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rootPath } from './lib/workspace';

/** Runs ensureVapidKeys(dataDir, env) of tools/scripts/lib/vapid-keys.mjs in a child process. */
function ensure(dataDir: string, env: Record<string, string> = {}) {
  const script = `import(${JSON.stringify(rootPath('tools/scripts/lib/vapid-keys.mjs'))}).then((m) => process.stdout.write(JSON.stringify(m.ensureVapidKeys(${JSON.stringify(dataDir)}, ${JSON.stringify(env)}))))`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: rootPath('.'),
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as { publicKey: string; privateKey: string; created: boolean };
}

describe('npm start: the web push (VAPID) key pair (ADR 0017)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mate-vapid-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('makes a P-256 pair on the first start, keeps it readable by this user only, and reuses it', () => {
    const first = ensure(dataDir);
    expect(first.created).toBe(true);
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(first.privateKey, 'base64url')).toHaveLength(32);
    const file = path.join(dataDir, 'secrets', 'vapid.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const second = ensure(dataDir);
    expect(second).toEqual({ ...first, created: false });
  });

  it('replaces a kept pair that is not one', () => {
    fs.mkdirSync(path.join(dataDir, 'secrets'));
    fs.writeFileSync(path.join(dataDir, 'secrets', 'vapid.json'), '{"publicKey":"short","privateKey":"x"}');
    const keys = ensure(dataDir);
    expect(keys.created).toBe(true);
    expect(Buffer.from(keys.publicKey, 'base64url')).toHaveLength(65);
  });

  it('takes the pair from the environment when both are set, writing nothing', () => {
    const keys = ensure(dataDir, { VAPID_PUBLIC_KEY: 'pub', VAPID_PRIVATE_KEY: 'priv' });
    expect(keys).toEqual({ publicKey: 'pub', privateKey: 'priv', created: false });
    expect(fs.existsSync(path.join(dataDir, 'secrets'))).toBe(false);
  });

  it('start.mjs passes the pair to notification-service and never prints it; the data folder is git-ignored', () => {
    // npm start's secrets (tools/scripts/lib/dev-secrets.mjs) hand the pair to notification-service alone.
    const secrets = fs.readFileSync(rootPath('tools/scripts/lib/dev-secrets.mjs'), 'utf8');
    expect(secrets).toContain("'notification-service': { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey }");
    const start = fs.readFileSync(rootPath('tools/scripts/start.mjs'), 'utf8');
    expect(start).toContain('serviceEnv: secrets.serviceEnv');
    expect(`${start}${secrets}`).not.toMatch(/(log|write)\([^)]*(vapid\.(privateKey|publicKey)|serviceEnv)/);
    expect(fs.readFileSync(rootPath('.gitignore'), 'utf8')).toMatch(/^\.data\/$/m);
  });
});
