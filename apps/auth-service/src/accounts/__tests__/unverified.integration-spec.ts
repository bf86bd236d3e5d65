import Redis from 'ioredis';
import { AuthMessages, ErrorCode } from '@mate/contracts';
import { PASSWORD, startAuthTestBed, tokenOf, type AuthTestBed } from '../../__tests__/auth-test-bed';

/**
 * Issue 7, item 7: email verification was enforced only in the browser. A session now says
 * whether its account is verified, and the guard refuses an unverified one everywhere but what
 * the verify-email prompt needs (me, logout, resend) and the session routes.
 */
describe('auth-service: unverified accounts', () => {
  let bed: AuthTestBed;
  let redis: Redis;

  beforeAll(async () => {
    bed = await startAuthTestBed('auth_unverified');
    redis = new Redis(bed.svc.env.REDIS_URL);
  });

  afterAll(async () => {
    await redis.quit();
    await bed.close();
  });

  const sessionIdOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sid: string }).sid;
  const notVerified = { status: 403, body: { error: AuthMessages.emailNotVerified, code: ErrorCode.EmailNotVerified } };

  it('lets an unverified member read me, resend the link, list and end sessions, and log out; nothing else', async () => {
    const { token } = await bed.register('prompt@mate.test');
    expect(await bed.call('GET', '/api/auth/me', { token })).toMatchObject({ status: 200, body: { isVerified: false } });
    expect((await bed.call('POST', '/api/verification/resend', { token })).status).toBe(200);
    const other = await bed.call<{ token: string }>('POST', '/api/auth/login', { body: { email: 'prompt@mate.test', password: PASSWORD } });
    expect(other.status).toBe(200);
    expect(await bed.call<unknown[]>('GET', '/api/sessions/my', { token })).toMatchObject({ status: 200, body: [{}, {}] });
    expect(await bed.call('DELETE', '/api/sessions/all/except-current', { token })).toMatchObject({ status: 200, body: { count: 1 } });

    const change = await bed.call('POST', '/api/auth/request-email-change', { token, body: { newEmail: 'elsewhere@mate.test' } });
    expect(change).toMatchObject(notVerified);
    expect(await bed.emailsTo('elsewhere@mate.test')).toEqual([]);

    expect((await bed.call('POST', '/api/auth/logout', { token })).status).toBe(200);
    expect((await bed.call('GET', '/api/auth/me', { token })).status).toBe(401);
  });

  it('lets the very same session through once the emailed link is opened', async () => {
    const { token } = await bed.register('opens-link@mate.test');
    const body = { newEmail: 'opens-link-new@mate.test' };
    expect(await bed.call('POST', '/api/auth/request-email-change', { token, body })).toMatchObject(notVerified);

    const link = (await bed.nextEmail('opens-link@mate.test', 'verify-email')).link;
    expect((await bed.call('POST', '/api/verification/verify', { body: { token: tokenOf(link) } })).status).toBe(200);
    expect((await bed.call('POST', '/api/auth/request-email-change', { token, body })).status).toBe(200);
  });

  it('starts sessions verified or not from the account: unverified at sign-up and sign-in, verified after', async () => {
    await bed.register('login-state@mate.test');
    const login = () => bed.call<{ token: string }>('POST', '/api/auth/login', { body: { email: 'login-state@mate.test', password: PASSWORD } });
    const before = (await login()).body.token;
    expect(await redis.hget(`${bed.svc.env.KEY_PREFIX}:session:${sessionIdOf(before)}`, 'verified')).toBe('0');

    const link = (await bed.nextEmail('login-state@mate.test', 'verify-email')).link;
    await bed.call('POST', '/api/verification/verify', { body: { token: tokenOf(link) } });
    const after = (await login()).body.token;
    expect(await redis.hget(`${bed.svc.env.KEY_PREFIX}:session:${sessionIdOf(after)}`, 'verified')).toBe('1');
    expect((await bed.call('GET', '/api/sessions/my', { token: after })).status).toBe(200);
  });

  it('counts a session from before sessions carried the flag as unverified, and GET /me brings it back in line', async () => {
    const { token } = await bed.registerVerified('older-session@mate.test');
    await redis.hdel(`${bed.svc.env.KEY_PREFIX}:session:${sessionIdOf(token)}`, 'verified');
    const body = { newEmail: 'older-session-new@mate.test' };
    expect(await bed.call('POST', '/api/auth/request-email-change', { token, body })).toMatchObject(notVerified);

    expect(await bed.call('GET', '/api/auth/me', { token })).toMatchObject({ status: 200, body: { isVerified: true } });
    expect((await bed.call('POST', '/api/auth/request-email-change', { token, body })).status).toBe(200);
  });
});
