import { AuthErrorCode, AuthMessages, MINUTE } from '@mate/contracts';
import type Redis from 'ioredis';
import { PERSON_NAME_MESSAGE, REDIS } from '@mate/server-kit';
import { viaGateway } from '@mate/server-kit/testing';
import { PASSWORD, startAuthTestBed, tokenOf, type AuthTestBed } from '../../__tests__/auth-test-bed';

/**
 * The attacks of issue 7 on accounts (items 2, 4, 6 and 10), each reproduced against the real
 * service (PostgreSQL, Redis, the email queue) and shown to fail now.
 */
describe('auth-service: account protection (issue 7)', () => {
  let bed: AuthTestBed;

  beforeAll(async () => {
    bed = await startAuthTestBed('auth_protect', { ADMIN_EMAILS: 'chief@mate.test, deputy@mate.test' });
  });

  afterAll(async () => {
    await bed.close();
  });

  const login = (email: string, password = PASSWORD, from = '127.0.0.1') =>
    bed.callFrom<{ token: string; user: { role: string } }>(from, 'POST', '/api/auth/login', { body: { email, password } });

  describe('item 2: a pending email change does not survive the owner taking the account back', () => {
    /** The attacker, with a stolen session, asks to move the account to their own address. */
    async function stolenSessionRequestsChange(victim: string, attacker: string) {
      const { token: stolen } = await bed.registerVerified(victim, { name: 'Vic' });
      const req = await bed.call('POST', '/api/auth/request-email-change', { token: stolen, body: { newEmail: attacker } });
      expect(req.status).toBe(200);
      const confirm = tokenOf((await bed.nextEmail(attacker, 'email-change')).link);
      return { stolen, confirm };
    }
    const confirmChange = (token: string) => bed.call('POST', '/api/auth/verify-email-change', { body: { token } });

    it('tells the current address, naming the new one, with a cancellation link; the new address gets no user text', async () => {
      await stolenSessionRequestsChange('told@mate.test', 'thief-told@evil.test');
      const notice = await bed.nextEmail('told@mate.test', 'email-change-requested');
      expect(notice).toMatchObject({ name: 'Vic', vars: { newEmail: 'thief-told@evil.test' } });
      expect(notice.link).toMatch(/^http:\/\/app\.mate\.test\/cancel-email-change\?token=[\w-]+$/);
      expect(await bed.nextEmail('thief-told@evil.test', 'email-change')).toMatchObject({ name: null });
    });

    it('a password reset cancels it: the confirmation link the attacker holds fails', async () => {
      const { stolen, confirm } = await stolenSessionRequestsChange('reset-victim@mate.test', 'thief-reset@evil.test');
      await bed.call('POST', '/api/auth/forgot-password', { body: { email: 'reset-victim@mate.test' } });
      const reset = tokenOf((await bed.nextEmail('reset-victim@mate.test', 'reset-password')).link);
      expect((await bed.call('POST', '/api/auth/reset-password', { body: { token: reset, newPassword: 'taken back at last' } })).status).toBe(200);
      expect((await bed.call('GET', '/api/auth/me', { token: stolen })).status).toBe(401);

      const attempt = await confirmChange(confirm);
      expect(attempt).toMatchObject({ status: 400, body: { error: AuthMessages.verificationLinkInvalid } });
      expect((await login('reset-victim@mate.test', 'taken back at last')).status).toBe(200);
      expect((await login('thief-reset@evil.test', 'taken back at last')).status).toBe(401);
    });

    it('logging out other devices cancels it too', async () => {
      const { stolen, confirm } = await stolenSessionRequestsChange('devices-victim@mate.test', 'thief-devices@evil.test');
      const owner = (await login('devices-victim@mate.test')).body.token;
      const out = await bed.call('DELETE', '/api/sessions/all/except-current', { token: owner });
      expect(out).toMatchObject({ status: 200, body: { count: 1 } });
      expect((await bed.call('GET', '/api/auth/me', { token: stolen })).status).toBe(401);

      expect(await confirmChange(confirm)).toMatchObject({ status: 400, body: { error: AuthMessages.verificationLinkInvalid } });
      expect((await bed.call('GET', '/api/auth/me', { token: owner })).body).toMatchObject({ email: 'devices-victim@mate.test' });
    });

    it('the cancellation link calls the change off, once', async () => {
      const { confirm } = await stolenSessionRequestsChange('cancel-victim@mate.test', 'thief-cancel@evil.test');
      const cancel = tokenOf((await bed.nextEmail('cancel-victim@mate.test', 'email-change-requested')).link);
      const first = await bed.call('POST', '/api/auth/cancel-email-change', { body: { token: cancel } });
      expect(first).toEqual(expect.objectContaining({ status: 200, body: { message: AuthMessages.emailChangeCancelled } }));
      expect((await confirmChange(confirm)).status).toBe(400);

      const again = await bed.call('POST', '/api/auth/cancel-email-change', { body: { token: cancel } });
      expect(again).toMatchObject({ status: 400, body: { error: AuthMessages.emailChangeCancelInvalid, code: AuthErrorCode.InvalidToken } });
      for (const token of ['not-a-token', 'x'.repeat(201)]) {
        const bad = await bed.call('POST', '/api/auth/cancel-email-change', { body: { token } });
        expect(bad.status).toBe(400);
        expect(bad.body).toHaveProperty('error');
      }
    });

    it('the first notice’s link still calls off a second request made meanwhile', async () => {
      const { stolen } = await stolenSessionRequestsChange('twice-victim@mate.test', 'thief-twice-1@evil.test');
      await bed.call('POST', '/api/auth/request-email-change', { token: stolen, body: { newEmail: 'thief-twice-2@evil.test' } });
      const second = tokenOf((await bed.nextEmail('thief-twice-2@evil.test', 'email-change')).link);
      const firstNotice = tokenOf((await bed.nextEmail('twice-victim@mate.test', 'email-change-requested')).link);
      expect((await bed.call('POST', '/api/auth/cancel-email-change', { body: { token: firstNotice } })).status).toBe(200);
      expect((await confirmChange(second)).status).toBe(400);
      const secondNotice = tokenOf((await bed.nextEmail('twice-victim@mate.test', 'email-change-requested', 1)).link);
      expect((await bed.call('POST', '/api/auth/cancel-email-change', { body: { token: secondNotice } })).status).toBe(400);
    });

    it('the cancellation link dies with the change: after the change is confirmed, or after 30 minutes', async () => {
      const { confirm } = await stolenSessionRequestsChange('done-change@mate.test', 'done-change-new@mate.test');
      const cancel = tokenOf((await bed.nextEmail('done-change@mate.test', 'email-change-requested')).link);
      expect((await confirmChange(confirm)).status).toBe(200);
      expect((await bed.call('POST', '/api/auth/cancel-email-change', { body: { token: cancel } })).status).toBe(400);

      await stolenSessionRequestsChange('late-cancel@mate.test', 'late-cancel-new@mate.test');
      const late = tokenOf((await bed.nextEmail('late-cancel@mate.test', 'email-change-requested')).link);
      bed.clock.advance(30 * MINUTE + 1000);
      const expired = await bed.call('POST', '/api/auth/cancel-email-change', { body: { token: late } });
      expect(expired).toMatchObject({ status: 400, body: { error: AuthMessages.emailChangeCancelInvalid } });
    });
  });

  describe('item 4: nobody can lock the owner out from elsewhere', () => {
    it('five failures lock the account for that address only: the owner signs in from another', async () => {
      await bed.register('locked-here@mate.test');
      for (let i = 0; i < 5; i++) expect((await login('locked-here@mate.test', `wrong guess ${i}`, '127.0.0.2')).status).toBe(401);
      const blocked = await login('locked-here@mate.test', PASSWORD, '127.0.0.2');
      expect(blocked).toMatchObject({ status: 429, body: { error: AuthMessages.tooManyAttempts } });
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);

      expect((await login('locked-here@mate.test', PASSWORD, '127.0.0.3')).status).toBe(200);
    });

    /** Fifty wrong guesses from ten addresses, five each (each address just reaches its own lock), side by side. */
    async function fiftyFailuresFromEverywhere(email: string) {
      const addresses = Array.from({ length: 10 }, (_, i) => `127.0.1.${i + 1}`);
      const statuses = await Promise.all(
        addresses.map(async (from) => {
          const seen: number[] = [];
          for (let n = 0; n < 5; n++) seen.push((await login(email, `guess number ${n}`, from)).status);
          return seen;
        }),
      );
      expect(statuses.flat()).toEqual(Array(50).fill(401));
    }

    it('the global brake: after 50 failures from anywhere, an address the owner signed in from before still gets in; others get 429 for 15 minutes', async () => {
      await bed.register('many-guesses@mate.test', {}); // from 127.0.0.1
      expect((await login('many-guesses@mate.test', PASSWORD, '127.0.3.1')).status).toBe(200);
      await fiftyFailuresFromEverywhere('many-guesses@mate.test');

      // The owner, at home (signed in from there before) and where the account was made.
      expect((await login('many-guesses@mate.test', PASSWORD, '127.0.3.1')).status).toBe(200);
      expect((await login('many-guesses@mate.test', PASSWORD, '127.0.0.1')).status).toBe(200);

      // Anyone else: 429, the right password or not (the refusal says nothing about it).
      const right = await login('many-guesses@mate.test', PASSWORD, '127.0.2.1');
      const wrong = await login('many-guesses@mate.test', 'one more guess', '127.0.2.1');
      for (const braked of [right, wrong]) {
        expect(braked).toMatchObject({ status: 429, body: { error: AuthMessages.tooManyAttempts } });
        const retryAfter = Number(braked.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThan(14 * 60);
        expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      }
      const { requestId: _r, ...rightBody } = right.body as Record<string, unknown>;
      const { requestId: _w, ...wrongBody } = wrong.body as Record<string, unknown>;
      expect(rightBody).toEqual(wrongBody);
      // The per-address lock still holds at a known address.
      for (let i = 0; i < 5; i++) expect((await login('many-guesses@mate.test', `home guess ${i}`, '127.0.3.1')).status).toBe(401);
      expect((await login('many-guesses@mate.test', PASSWORD, '127.0.3.1')).status).toBe(429);
      expect((await login('many-guesses@mate.test', PASSWORD, '127.0.0.1')).status).toBe(200);
    }, 60_000);

    it('the brake ends with a password reset; an address known more than 90 days ago is a stranger again', async () => {
      await bed.register('long-ago@mate.test'); // from 127.0.0.1
      expect((await login('long-ago@mate.test', PASSWORD, '127.0.3.2')).status).toBe(200);
      bed.clock.advance(91 * 24 * 60 * MINUTE);
      expect((await login('long-ago@mate.test', PASSWORD, '127.0.3.3')).status).toBe(200);
      await fiftyFailuresFromEverywhere('long-ago@mate.test');
      expect((await login('long-ago@mate.test', PASSWORD, '127.0.3.2')).status).toBe(429);
      expect((await login('long-ago@mate.test', PASSWORD, '127.0.0.1')).status).toBe(429);
      expect((await login('long-ago@mate.test', PASSWORD, '127.0.3.3')).status).toBe(200);

      await bed.call('POST', '/api/auth/forgot-password', { body: { email: 'long-ago@mate.test' } });
      const reset = tokenOf((await bed.nextEmail('long-ago@mate.test', 'reset-password')).link);
      await bed.call('POST', '/api/auth/reset-password', { body: { token: reset, newPassword: 'a fresh password' } });
      expect((await login('long-ago@mate.test', 'a fresh password', '127.0.2.1')).status).toBe(200);
    }, 60_000);

    it('an account keeps its 20 most recent addresses', async () => {
      await bed.register('travels@mate.test'); // from 127.0.0.1, the oldest
      for (let i = 1; i <= 20; i++) {
        bed.clock.advance(MINUTE);
        expect((await login('travels@mate.test', PASSWORD, `127.0.4.${i}`)).status).toBe(200);
      }
      await fiftyFailuresFromEverywhere('travels@mate.test');
      expect((await login('travels@mate.test', PASSWORD, '127.0.0.1')).status).toBe(429);
      expect((await login('travels@mate.test', PASSWORD, '127.0.4.1')).status).toBe(200);
    }, 60_000);

    it('IPv6: the addresses of one /64 share one budget (a client picks a new one at will)', async () => {
      await bed.register('v6@mate.test');
      const from = (address: string, password: string) =>
        bed.call('POST', '/api/auth/login', { body: { email: 'v6@mate.test', password }, headers: viaGateway(address, bed.svc.env) });
      for (let i = 1; i <= 5; i++) expect((await from(`2001:db8:a:b::${i}`, `wrong guess ${i}`)).status).toBe(401);
      const sixth = await from('2001:db8:a:b:ffff:1:2:3', PASSWORD);
      expect(sixth).toMatchObject({ status: 429, body: { error: AuthMessages.tooManyAttempts } });
      expect((await from('2001:db8:a:c::1', PASSWORD)).status).toBe(200);
    });
  });

  describe('item 6: no attacker text in official emails', () => {
    it.each([
      ['a URL', 'Security team: your account is at risk, re-login at https://evil.example'],
      ['a bare domain', 'Security team: re-login at mate-support.com'],
      ['www.', 'see www.evil'],
      ['an address', 'write to help@evil'],
      ['a bidi override', 'Ana\u202Emoc.live'],
      ['a TLD no list had', 'Security team: re-login at mate-login.ai'],
      ['a Cyrillic о in the ending', 'evil.\u0441\u043Em'],
      ['a word mixing Latin and Cyrillic', 'Support from p\u0430ypal'],
    ])('refuses a name with %s at sign-up', async (_what, name) => {
      const res = await bed.call('POST', '/api/auth/register', { body: { email: 'phish@mate.test', password: PASSWORD, name } });
      expect(res).toMatchObject({ status: 400, body: { error: PERSON_NAME_MESSAGE } });
    });

    it('sends the verification link, and a reset link to an unverified address, without the name', async () => {
      const { token } = await bed.register('unproven@mate.test', { name: 'Nina' });
      expect(await bed.nextEmail('unproven@mate.test', 'verify-email')).toMatchObject({ name: null });
      await bed.call('POST', '/api/verification/resend', { token });
      expect(await bed.nextEmail('unproven@mate.test', 'verify-email', 1)).toMatchObject({ name: null });
      await bed.call('POST', '/api/auth/forgot-password', { body: { email: 'unproven@mate.test' } });
      expect(await bed.nextEmail('unproven@mate.test', 'reset-password')).toMatchObject({ name: null });

      await bed.registerVerified('proven@mate.test', { name: 'Pia' });
      await bed.call('POST', '/api/auth/forgot-password', { body: { email: 'proven@mate.test' } });
      expect(await bed.nextEmail('proven@mate.test', 'reset-password')).toMatchObject({ name: 'Pia' });
    });
  });

  describe('item 10: ADMIN_EMAILS grant the role only to a verified address', () => {
    it('whoever registers an admin address first is a member, at sign-up and sign-in, until it is verified', async () => {
      const { token, user } = await bed.register('chief@mate.test');
      expect(user.role).toBe('member');
      expect((await login('chief@mate.test')).body.user.role).toBe('member');
      expect((await bed.call('GET', '/api/auth/me', { token })).body).toMatchObject({ role: 'member' });

      const link = (await bed.nextEmail('chief@mate.test', 'verify-email')).link;
      await bed.call('POST', '/api/verification/verify', { body: { token: tokenOf(link) } });
      // The very same session is admin now, in Redis too (the gateway's admin check reads it).
      expect((await bed.call('GET', '/api/auth/me', { token })).body).toMatchObject({ role: 'admin' });
      const sessionId = (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sid: string }).sid;
      const redis = bed.svc.app.get<Redis>(REDIS);
      expect(await redis.hget(`${bed.svc.env.KEY_PREFIX}:session:${sessionId}`, 'role')).toBe('admin');
      expect((await login('chief@mate.test')).body.user.role).toBe('admin');
    });

    it('an email change to an admin address grants it once the new address is confirmed', async () => {
      const { token } = await bed.registerVerified('future-deputy@mate.test');
      await bed.call('POST', '/api/auth/request-email-change', { token, body: { newEmail: 'deputy@mate.test' } });
      expect((await bed.call('GET', '/api/auth/me', { token })).body).toMatchObject({ role: 'member' });
      const confirm = tokenOf((await bed.nextEmail('deputy@mate.test', 'email-change')).link);
      expect((await bed.call('POST', '/api/auth/verify-email-change', { body: { token: confirm } })).status).toBe(200);
      expect((await bed.call('GET', '/api/auth/me', { token })).body).toMatchObject({ role: 'admin', email: 'deputy@mate.test' });
    });
  });
});
