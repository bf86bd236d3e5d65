import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { SessionStore } from '@mate/server-kit';
import { issueSession, startServiceProcess, type ServiceProcess } from '@mate/server-kit/testing';
import { createTestRedisNamespace, freePort } from '@mate/testing';
import { rootPath } from './lib/workspace';

/** The kit's published development defaults: a running `npm start` must never accept them. */
const PUBLISHED = { JWT_SECRET: 'dev-only-jwt-secret-change-me', INTERNAL_TOKEN: 'dev-only-internal-token-change-me' };

interface StartSecrets {
  extraEnv: Record<string, string>;
  serviceEnv: Record<string, Record<string, string>>;
  created: string[];
}

/** Runs npmStartSecrets(dataDir, env) of tools/scripts/lib/dev-secrets.mjs as `npm start` does, in a child process. */
function npmStartSecrets(dataDir: string, env: Record<string, string> = {}): StartSecrets {
  const script = `import(${JSON.stringify(rootPath('tools/scripts/lib/dev-secrets.mjs'))}).then((m) => process.stdout.write(JSON.stringify(m.npmStartSecrets(${JSON.stringify(dataDir)}, ${JSON.stringify(env)}))))`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: rootPath('.'), encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as StartSecrets;
}

/**
 * Issue 24 item 8: `npm start` signed tokens with the JWT secret published in this repository, so
 * a token re-signed with `dev-only-jwt-secret-change-me` passed its gateway. The first start now
 * makes random secrets and keeps them in `.data/secrets`; later starts reuse them.
 */
describe('npm start: secrets of this machine, never the published defaults', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mate-dev-secrets-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('makes random secrets on the first start, keeps them readable by this user only, and reuses them', () => {
    const first = npmStartSecrets(dataDir);
    expect(first.created).toEqual(expect.arrayContaining(['JWT_SECRET', 'INTERNAL_TOKEN']));
    for (const name of ['JWT_SECRET', 'INTERNAL_TOKEN'] as const) {
      expect(first.extraEnv[name]).toMatch(/^[0-9a-f]{64}$/);
      expect(first.extraEnv[name]).not.toBe(PUBLISHED[name]);
    }
    expect(first.extraEnv.JWT_SECRET).not.toBe(first.extraEnv.INTERNAL_TOKEN);
    const file = path.join(dataDir, 'secrets', 'dev-secrets.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ JWT_SECRET: first.extraEnv.JWT_SECRET, INTERNAL_TOKEN: first.extraEnv.INTERNAL_TOKEN });

    const second = npmStartSecrets(dataDir);
    expect(second.created).toEqual([]);
    expect(second.extraEnv).toEqual(first.extraEnv);
    expect(second.serviceEnv).toEqual(first.serviceEnv);

    // Another machine (another data folder) gets its own.
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'mate-dev-secrets-'));
    try {
      expect(npmStartSecrets(elsewhere).extraEnv.JWT_SECRET).not.toBe(first.extraEnv.JWT_SECRET);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('replaces a kept file that is not ours (unreadable, or a published default written into it)', () => {
    fs.mkdirSync(path.join(dataDir, 'secrets'));
    fs.writeFileSync(path.join(dataDir, 'secrets', 'dev-secrets.json'), JSON.stringify(PUBLISHED));
    const secrets = npmStartSecrets(dataDir);
    expect(secrets.created).toEqual(expect.arrayContaining(['JWT_SECRET', 'INTERNAL_TOKEN']));
    expect(secrets.extraEnv.JWT_SECRET).not.toBe(PUBLISHED.JWT_SECRET);
    fs.writeFileSync(path.join(dataDir, 'secrets', 'dev-secrets.json'), '{not json');
    expect(npmStartSecrets(dataDir).extraEnv.INTERNAL_TOKEN).toMatch(/^[0-9a-f]{64}$/);
  });

  it('takes a secret set in the environment instead, and makes only the others', () => {
    const secrets = npmStartSecrets(dataDir, { JWT_SECRET: 'from-the-environment-0123456789abcdef' });
    expect(secrets.extraEnv.JWT_SECRET).toBe('from-the-environment-0123456789abcdef');
    expect(secrets.created).toContain('INTERNAL_TOKEN');
    expect(secrets.created).not.toContain('JWT_SECRET');
    const kept = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets', 'dev-secrets.json'), 'utf8')) as Record<string, string>;
    expect(kept).not.toHaveProperty('JWT_SECRET');
  });

  it('start.mjs gives them to every process and names no default; .data/ is git-ignored', () => {
    const start = fs.readFileSync(rootPath('tools/scripts/start.mjs'), 'utf8');
    expect(start).toMatch(/extraEnv: \{[^}]*\.\.\.secrets\.extraEnv,?\s*\}/);
    expect(start).toContain('serviceEnv: secrets.serviceEnv');
    expect(start).not.toMatch(/dev-only|change-me/);
    expect(start).not.toMatch(/(log|write)\([^)]*secrets\.(extraEnv|serviceEnv)/);
    // startPlatform puts extraEnv into the env of each service and of the gateway.
    const platform = fs.readFileSync(rootPath('tools/scripts/lib/platform.mjs'), 'utf8');
    expect(platform).toMatch(/const common = \{[\s\S]*?\.\.\.extraEnv,\s*\};/);
    expect(platform).toMatch(/const env = \{\s*\.\.\.common,/);
    expect(platform).toMatch(/const gatewayEnv = \{ \.\.\.common,/);
    expect(fs.readFileSync(rootPath('.gitignore'), 'utf8')).toMatch(/^\.data\/$/m);
  });

  describe('a gateway started with them (from source, real Redis)', () => {
    jest.setTimeout(90_000);
    let gateway: ServiceProcess | undefined;
    let redis: Redis | undefined;
    let ns: Awaited<ReturnType<typeof createTestRedisNamespace>> | undefined;

    afterEach(async () => {
      await gateway?.stop();
      redis?.disconnect();
      await ns?.cleanup();
    });

    it('refuses a token signed with the published JWT secret and accepts one signed with the kept secret', async () => {
      const { extraEnv } = npmStartSecrets(dataDir);
      ns = await createTestRedisNamespace('dev_secrets');
      const [port, closed] = await Promise.all([freePort(), freePort()]);
      gateway = await startServiceProcess('apps/gateway/src/main.ts', port, {
        ...extraEnv,
        NODE_ENV: 'development',
        REDIS_URL: ns.url,
        KEY_PREFIX: ns.prefix,
        LOG_LEVEL: 'silent',
        AUTH_SERVICE_URL: `http://127.0.0.1:${closed}`,
      });
      redis = new Redis(ns.url);
      const sessions = new SessionStore(redis, ns.prefix);
      const me = (token: string) => fetch(`${gateway?.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });

      const forged = await issueSession(sessions, PUBLISHED.JWT_SECRET);
      expect((await me(forged.token)).status).toBe(401);
      const genuine = await issueSession(sessions, extraEnv.JWT_SECRET);
      // Past the gateway's check: forwarded to auth-service, which is not running here.
      expect((await me(genuine.token)).status).toBe(503);
    });
  });
});
