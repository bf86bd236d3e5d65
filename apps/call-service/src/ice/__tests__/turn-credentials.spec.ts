import { loadEnv, ConfigError } from '@mate/server-kit';
import { IceEnv } from '../ice.env';
import { splitUrls, turnCredentials } from '../turn-credentials';

describe('TURN credentials (coturn REST scheme)', () => {
  it('username is `<expiry>:<userId>` and the credential base64(HMAC-SHA1(secret, username)) (vector computed with openssl)', () => {
    // printf '1767229200:user-1' | openssl dgst -sha1 -hmac 'north-wind-turn-secret' -binary | base64
    const creds = turnCredentials(
      'north-wind-turn-secret',
      'user-1',
      new Date('2026-01-01T00:00:00.000Z'),
      3600,
    );
    expect(creds).toEqual({
      username: '1767229200:user-1',
      credential: '0swWxh9M6XfhcOlLP6ZRs5DEajA=',
      expiresAt: new Date('2026-01-01T01:00:00.000Z'),
    });
  });

  it('expiry counts whole seconds from now', () => {
    const creds = turnCredentials('north-wind-turn-secret', 'u', new Date('2026-01-01T00:00:00.900Z'), 60);
    expect(creds.username).toBe('1767225660:u');
  });

  it('splits a comma list, dropping blanks', () => {
    expect(splitUrls(' stun:a:3478, ,stun:b ')).toEqual(['stun:a:3478', 'stun:b']);
    expect(splitUrls(undefined)).toEqual([]);
  });
});

describe('ICE settings', () => {
  const base = { DATABASE_URL: 'postgres://x@127.0.0.1/db' };

  it('none configured is valid (no ICE server)', () => {
    const env = loadEnv(IceEnv, base);
    expect([env.STUN_URLS, env.TURN_URLS, env.TURN_SECRET, env.TURN_TTL_SECONDS]).toEqual([
      undefined,
      undefined,
      undefined,
      3600,
    ]);
  });

  it('a TURN url without a secret stops start-up', () => {
    expect(() => loadEnv(IceEnv, { ...base, TURN_URLS: 'turn:turn.example.org:3478' })).toThrow(
      /TURN_SECRET is required when TURN_URLS is set/,
    );
  });

  it('a short secret is refused without printing it', () => {
    let error: unknown;
    try {
      loadEnv(IceEnv, { ...base, TURN_URLS: 'turn:t:3478', TURN_SECRET: 'short-secret' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/TURN_SECRET=\(hidden\)/);
    expect((error as Error).message).not.toContain('short-secret');
  });

  it('URLs must carry their scheme', () => {
    expect(() => loadEnv(IceEnv, { ...base, STUN_URLS: 'stun.example.org:3478' })).toThrow(/STUN_URLS/);
    expect(() => loadEnv(IceEnv, { ...base, STUN_URLS: 'turn:t:3478' })).toThrow(/STUN_URLS/);
    expect(() =>
      loadEnv(IceEnv, { ...base, TURN_URLS: 'stun:t:3478', TURN_SECRET: 'a-long-enough-turn-secret' }),
    ).toThrow(/TURN_URLS/);
    const env = loadEnv(IceEnv, {
      ...base,
      STUN_URLS: 'stun:a:3478,stuns:b:5349',
      TURN_URLS: 'turn:t:3478?transport=udp, turns:t:5349?transport=tcp',
      TURN_SECRET: 'a-long-enough-turn-secret',
      TURN_TTL_SECONDS: '600',
    });
    expect(env.TURN_TTL_SECONDS).toBe(600);
  });
});
