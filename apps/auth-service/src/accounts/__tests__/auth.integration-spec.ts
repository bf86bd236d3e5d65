import { DataSource } from 'typeorm';
import { AuthErrorCode, AuthMessages, MINUTE } from '@mate/contracts';
import { NulTextMessages, PERSON_NAME_MESSAGE, SessionStore } from '@mate/server-kit';
import { call, type ServiceTestBed } from '@mate/server-kit/testing';
import { PASSWORD, startAuthTestBed, tokenOf, type AuthTestBed } from '../../__tests__/auth-test-bed';
import { AccountsService } from '../accounts.service';

describe('auth-service', () => {
  let bed: AuthTestBed;
  let svc: ServiceTestBed;
  let url: string;

  beforeAll(async () => {
    bed = await startAuthTestBed('auth', { ADMIN_EMAILS: 'boss@mate.test' });
    svc = bed.svc;
    url = bed.url;
  });

  afterAll(async () => {
    await bed.close();
  });

  describe('register', () => {
    it.each([
      ['a short password', { email: 'short@mate.test', password: 'short' }, 'Password must be at least 8 characters'],
      ['a bad email', { email: 'not-an-email', password: PASSWORD }, 'Please enter a valid email address'],
      ['an unknown field', { email: 'x@mate.test', password: PASSWORD, isAdmin: true }, 'Unknown field: isAdmin'],
      ['an under-age member', { email: 'kid@mate.test', password: PASSWORD, age: 17 }, 'You must be 18 or older to use the product'],
      ['an age over 120', { email: 'old@mate.test', password: PASSWORD, age: 121 }, 'Age must be at most 120'],
      ['an age sent as text', { email: 'text-age@mate.test', password: PASSWORD, age: '17' }, 'Age must be a whole number'],
    ])('refuses %s with a clear error', async (_what, body, error) => {
      const res = await call(url, 'POST', '/api/auth/register', { body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error });
    });

    it('accepts the age bounds 18 and 120', async () => {
      for (const age of [18, 120]) {
        const res = await call(url, 'POST', '/api/auth/register', { body: { email: `age${age}@mate.test`, password: PASSWORD, age } });
        expect(res.status).toBe(201);
      }
    });

    it('refuses control characters in names with a 400 instead of failing with a 500', async () => {
      const res = await call(url, 'POST', '/api/auth/register', {
        body: { email: 'nul@mate.test', password: PASSWORD, name: '\u0001Ev\u0007e ' },
      });
      expect(res).toMatchObject({ status: 400, body: { error: PERSON_NAME_MESSAGE } });
      const nul = await call(url, 'POST', '/api/auth/register', {
        body: { email: 'nul@mate.test', password: PASSWORD, name: 'Ev\u0000e' },
      });
      expect(nul).toMatchObject({ status: 400, body: { error: NulTextMessages.bodyField('name') } });
    });

    it('reads JSON only: a form-encoded or unsupported-charset body is a 4xx', async () => {
      const form = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=login%40mate.test&password=x',
      });
      expect(form.status).toBe(400);
      const latin = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=latin1' },
        body: '{"email":"a@mate.test","password":"x"}',
      });
      expect(latin.status).toBe(415);
      expect(await latin.json()).toMatchObject({ error: 'Unsupported character set: send UTF-8 JSON' });
    });

    it('refuses malformed JSON with a 400, not a 500', async () => {
      const res = await call(url, 'POST', '/api/auth/register', { raw: '{"email": "x@mate.test",' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'Malformed JSON in request body' });
    });

    it('refuses a duplicate email, whatever its case, and writes nothing', async () => {
      await bed.register('dup@mate.test');
      const res = await call(url, 'POST', '/api/auth/register', { body: { email: 'DUP@mate.test', password: PASSWORD } });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: AuthMessages.emailTaken, code: AuthErrorCode.EmailTaken });
      const ds = svc.app.get(DataSource);
      const [{ n }] = await ds.query("SELECT count(*)::int AS n FROM users WHERE lower(email) = 'dup@mate.test'");
      expect(n).toBe(1);
    });

    it('answers with a token and an unverified user, and sends a verification link that verifies once', async () => {
      const { token, user } = await bed.register('new@mate.test', { name: 'Nina', age: 29 });
      expect(user).toMatchObject({ isVerified: false });
      const me = await call(url, 'GET', '/api/auth/me', { token });
      expect(me.body).toMatchObject({ id: user.id, email: 'new@mate.test', name: 'Nina', role: 'member', isVerified: false });

      const email = await bed.nextEmail('new@mate.test', 'verify-email');
      expect(email.link).toMatch(/^http:\/\/app\.mate\.test\/verify-email\?token=/);
      const verified = await call(url, 'POST', '/api/verification/verify', { body: { token: tokenOf(email.link) } });
      expect(verified.status).toBe(200);
      expect((await call(url, 'GET', '/api/auth/me', { token })).body).toMatchObject({ isVerified: true });

      const again = await call(url, 'POST', '/api/verification/verify', { body: { token: tokenOf(email.link) } });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ error: AuthMessages.verificationLinkInvalid });

      const ds = svc.app.get(DataSource);
      // The account's own events (the sign-up session's once-a-day member.active fact is another story: member-activity).
      const events = await ds.query("SELECT name FROM outbox WHERE kind = 'event' AND name LIKE 'user.%' AND body->'payload'->>'userId' = $1 ORDER BY created_at", [user.id]);
      expect(events.map((e: { name: string }) => e.name)).toEqual(['user.registered', 'user.verified']);
    });

    it('resends a verification email, and the newest link is the one that works', async () => {
      const { token } = await bed.register('resend@mate.test');
      const first = await bed.nextEmail('resend@mate.test', 'verify-email');
      expect((await call(url, 'POST', '/api/verification/resend', { token })).status).toBe(200);
      const second = await bed.nextEmail('resend@mate.test', 'verify-email', 1);
      expect((await call(url, 'POST', '/api/verification/verify', { body: { token: tokenOf(first.link) } })).status).toBe(400);
      expect((await call(url, 'POST', '/api/verification/verify', { body: { token: tokenOf(second.link) } })).status).toBe(200);
      const after = await call(url, 'POST', '/api/verification/resend', { token });
      expect(after).toMatchObject({
        status: 400,
        body: { error: AuthMessages.alreadyVerified, code: AuthErrorCode.AlreadyVerified },
      });
    });

    it('makes ADMIN_EMAILS admins once the address is verified', async () => {
      const { token, user } = await bed.register('boss@mate.test');
      expect(user).toMatchObject({ role: 'member' });
      const link = (await bed.nextEmail('boss@mate.test', 'verify-email')).link;
      await call(url, 'POST', '/api/verification/verify', { body: { token: tokenOf(link) } });
      expect((await call(url, 'GET', '/api/auth/me', { token })).body).toMatchObject({ role: 'admin' });
    });
  });

  describe('login, me, logout', () => {
    it('signs in, reads me, and a logged-out token is refused at once', async () => {
      await bed.register('login@mate.test', { name: 'Lou' });
      const login = await call<{ token: string }>(url, 'POST', '/api/auth/login', {
        body: { email: 'Login@Mate.test', password: PASSWORD },
        headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1' },
      });
      expect(login.status).toBe(200);
      const token = login.body.token;
      expect((await call(url, 'GET', '/api/auth/me', { token })).body).toMatchObject({ email: 'login@mate.test', name: 'Lou' });
      expect((await call(url, 'POST', '/api/auth/logout', { token })).status).toBe(200);
      const after = await call(url, 'GET', '/api/auth/me', { token });
      expect(after.status).toBe(401);
      expect(after.body).toMatchObject({ error: AuthMessages.sessionExpired });
    });

    it('answers a wrong password and an unknown account alike', async () => {
      await bed.register('same@mate.test');
      const wrong = await call(url, 'POST', '/api/auth/login', { body: { email: 'same@mate.test', password: 'wrong password' } });
      const unknown = await call(url, 'POST', '/api/auth/login', { body: { email: 'nobody@mate.test', password: 'wrong password' } });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.body).toMatchObject({ error: AuthMessages.invalidCredentials, code: AuthErrorCode.InvalidCredentials });
      expect(unknown.body.error).toBe(AuthMessages.invalidCredentials);
    });

    it('throttles repeated failed logins on an account, even with the right password afterwards', async () => {
      await bed.register('throttle@mate.test');
      for (let i = 0; i < 5; i++) {
        const res = await call(url, 'POST', '/api/auth/login', { body: { email: 'throttle@mate.test', password: `wrong-${i}-pass` } });
        expect(res.status).toBe(401);
      }
      const blocked = await call(url, 'POST', '/api/auth/login', { body: { email: 'throttle@mate.test', password: PASSWORD } });
      expect(blocked.status).toBe(429);
      expect(blocked.body).toMatchObject({ error: AuthMessages.tooManyAttempts });
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('needs a token for me, and refuses a forged one', async () => {
      expect((await call(url, 'GET', '/api/auth/me')).status).toBe(401);
      const forged = await call(url, 'GET', '/api/auth/me', { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4Iiwic2lkIjoieSJ9.bad' });
      expect(forged).toMatchObject({ status: 401, body: { error: AuthMessages.authRequired } });
    });
  });

  describe('password reset', () => {
    it('answers forgot-password the same for unknown and known emails', async () => {
      await bed.register('forgot@mate.test');
      const known = await call(url, 'POST', '/api/auth/forgot-password', { body: { email: 'forgot@mate.test' } });
      const unknown = await call(url, 'POST', '/api/auth/forgot-password', { body: { email: 'ghost@mate.test' } });
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(200);
      expect(known.body).toEqual({ message: AuthMessages.forgotPasswordSent });
      expect(unknown.body).toEqual(known.body);
      await bed.nextEmail('forgot@mate.test', 'reset-password');
      await new Promise((r) => setTimeout(r, 200));
      expect(await bed.emailsTo('ghost@mate.test')).toHaveLength(0);
    });

    it('resets with a token once, ends every session, and refuses the token again', async () => {
      const { token: session } = await bed.register('reset@mate.test');
      await call(url, 'POST', '/api/auth/forgot-password', { body: { email: 'reset@mate.test' } });
      const link = (await bed.nextEmail('reset@mate.test', 'reset-password')).link;
      expect(link).toMatch(/^http:\/\/app\.mate\.test\/reset-password\?token=/);
      expect((await call(url, 'POST', '/api/auth/verify-reset-token', { body: { token: tokenOf(link) } })).body).toEqual({ valid: true });
      const short = await call(url, 'POST', '/api/auth/reset-password', { body: { token: tokenOf(link), newPassword: 'short' } });
      expect(short).toMatchObject({ status: 400, body: { error: 'Password must be at least 8 characters' } });

      const reset = await call(url, 'POST', '/api/auth/reset-password', { body: { token: tokenOf(link), newPassword: 'a brand new secret' } });
      expect(reset.status).toBe(200);
      expect((await call(url, 'GET', '/api/auth/me', { token: session })).status).toBe(401);
      const again = await call(url, 'POST', '/api/auth/reset-password', { body: { token: tokenOf(link), newPassword: 'another new secret' } });
      expect(again).toMatchObject({ status: 400, body: { error: AuthMessages.resetLinkInvalid } });
      expect((await call(url, 'POST', '/api/auth/login', { body: { email: 'reset@mate.test', password: PASSWORD } })).status).toBe(401);
      expect((await call(url, 'POST', '/api/auth/login', { body: { email: 'reset@mate.test', password: 'a brand new secret' } })).status).toBe(200);
    });

    it('refuses a reset token after 15 minutes', async () => {
      await bed.register('late@mate.test');
      await call(url, 'POST', '/api/auth/forgot-password', { body: { email: 'late@mate.test' } });
      const token = tokenOf((await bed.nextEmail('late@mate.test', 'reset-password')).link);
      bed.clock.advance(15 * MINUTE - 1000);
      expect((await call(url, 'POST', '/api/auth/verify-reset-token', { body: { token } })).status).toBe(200);
      bed.clock.advance(2000);
      const expired = await call(url, 'POST', '/api/auth/reset-password', { body: { token, newPassword: 'too late now' } });
      expect(expired).toMatchObject({ status: 400, body: { error: AuthMessages.resetLinkInvalid } });
    });
  });

  describe('email change', () => {
    it('changes the email only once the new address is verified, and tells the old address', async () => {
      const { token, user } = await bed.registerVerified('old@mate.test');
      const taken = await call(url, 'POST', '/api/auth/request-email-change', { token, body: { newEmail: 'dup@mate.test' } });
      expect(taken.status).toBe(409);
      const same = await call(url, 'POST', '/api/auth/request-email-change', { token, body: { newEmail: 'OLD@mate.test' } });
      expect(same).toMatchObject({
        status: 400,
        body: { error: AuthMessages.emailChangeSame, code: AuthErrorCode.EmailChangeSame },
      });

      const req = await call(url, 'POST', '/api/auth/request-email-change', { token, body: { newEmail: 'fresh@mate.test' } });
      expect(req).toMatchObject({ status: 200, body: { message: AuthMessages.emailChangeRequested } });
      expect((await call(url, 'GET', '/api/auth/me', { token })).body).toMatchObject({ email: 'old@mate.test' });
      expect((await call(url, 'POST', '/api/auth/login', { body: { email: 'fresh@mate.test', password: PASSWORD } })).status).toBe(401);

      const link = (await bed.nextEmail('fresh@mate.test', 'email-change')).link;
      expect(link).toMatch(/^http:\/\/app\.mate\.test\/verify-email-change\?token=/);
      const done = await call(url, 'POST', '/api/auth/verify-email-change', { body: { token: tokenOf(link) } });
      expect(done).toMatchObject({ status: 200, body: { newEmail: 'fresh@mate.test' } });
      expect((await call(url, 'GET', '/api/auth/me', { token })).body).toMatchObject({ id: user.id, email: 'fresh@mate.test' });
      expect((await call(url, 'POST', '/api/auth/login', { body: { email: 'fresh@mate.test', password: PASSWORD } })).status).toBe(200);
      expect((await call(url, 'POST', '/api/auth/verify-email-change', { body: { token: tokenOf(link) } })).status).toBe(400);

      const ds = svc.app.get(DataSource);
      const [event] = await ds.query("SELECT body FROM outbox WHERE name = 'user.email_changed' AND body->'payload'->>'userId' = $1", [user.id]);
      expect(event.body.payload).toMatchObject({ oldEmail: 'old@mate.test', newEmail: 'fresh@mate.test' });
    });

    it('refuses an email-change link after 30 minutes', async () => {
      const { token } = await bed.registerVerified('slow@mate.test');
      await call(url, 'POST', '/api/auth/request-email-change', { token, body: { newEmail: 'slower@mate.test' } });
      const link = (await bed.nextEmail('slower@mate.test', 'email-change')).link;
      bed.clock.advance(30 * MINUTE + 1000);
      const res = await call(url, 'POST', '/api/auth/verify-email-change', { body: { token: tokenOf(link) } });
      expect(res).toMatchObject({ status: 400, body: { error: AuthMessages.verificationLinkInvalid } });
      expect((await call(url, 'GET', '/api/auth/me', { token })).body).toMatchObject({ email: 'slow@mate.test' });
    });
  });

  describe('sessions', () => {
    it('lists sessions with the current one marked, and a deleted session fails on its very next request', async () => {
      await bed.register('multi@mate.test');
      const signIn = (ua: string) =>
        call<{ token: string }>(url, 'POST', '/api/auth/login', { body: { email: 'multi@mate.test', password: PASSWORD }, headers: { 'user-agent': ua } });
      const laptop = (await signIn('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36')).body.token;
      const phone = (await signIn('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36')).body.token;

      const list = await call<{ id: string; isCurrent: boolean; deviceInfo: string; lastActivity: string; createdAt: string }[]>(
        url, 'GET', '/api/sessions/my', { token: laptop },
      );
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(3);
      expect(list.body[0]).toMatchObject({ isCurrent: true, deviceInfo: expect.stringContaining('Chrome 131 on macOS') });
      const phoneSession = list.body.find((s) => s.deviceInfo.includes('Android'));
      expect(phoneSession?.deviceInfo).toContain('mobile');

      expect((await call(url, 'GET', '/api/auth/me', { token: phone })).status).toBe(200);
      const del = await call(url, 'DELETE', `/api/sessions/${phoneSession?.id}`, { token: laptop });
      expect(del.status).toBe(200);
      expect((await call(url, 'GET', '/api/auth/me', { token: phone })).status).toBe(401);

      const others = await call<{ count: number }>(url, 'DELETE', '/api/sessions/all/except-current', { token: laptop });
      expect(others.body.count).toBe(1);
      const remaining = await call<unknown[]>(url, 'GET', '/api/sessions/my', { token: laptop });
      expect(remaining.body).toHaveLength(1);
    });

    it("cannot end another member's session", async () => {
      const a = await bed.register('a-sess@mate.test');
      const b = await bed.register('b-sess@mate.test');
      const [bSession] = (await call<{ id: string }[]>(url, 'GET', '/api/sessions/my', { token: b.token })).body;
      const res = await call(url, 'DELETE', `/api/sessions/${bSession.id}`, { token: a.token });
      expect(res.status).toBe(404);
      expect((await call(url, 'GET', '/api/auth/me', { token: b.token })).status).toBe(200);
    });
  });

  it('grants the admin role from the command, effective on live sessions', async () => {
    const { token } = await bed.register('grant@mate.test');
    await svc.app.get(AccountsService).grantAdmin('GRANT@mate.test');
    expect((await call(url, 'GET', '/api/auth/me', { token })).body).toMatchObject({ role: 'admin' });
  });

  it('revokes the admin role from the command, effective on live sessions at once; an ADMIN_EMAILS address is refused (issue 24)', async () => {
    const accounts = svc.app.get(AccountsService);
    const { token } = await bed.register('revoke@mate.test');
    await accounts.grantAdmin('revoke@mate.test');
    const [{ id: sessionId, user_id: userId }] = await svc.dataSource.query(
      `SELECT s.id, s.user_id FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = 'revoke@mate.test'`,
    );
    const sessions = svc.app.get(SessionStore);
    expect(await sessions.touch(sessionId, userId)).toMatchObject({ role: 'admin' });

    expect(await accounts.revokeAdmin(' REVOKE@mate.test ')).toMatchObject({ role: 'member' });

    // The live session says member before any request could bring it in line with the account.
    expect(await sessions.touch(sessionId, userId)).toMatchObject({ role: 'member' });
    expect((await call(url, 'GET', '/api/auth/me', { token })).body).toMatchObject({ role: 'member' });
    await expect(accounts.revokeAdmin('boss@mate.test')).rejects.toMatchObject({ response: { error: expect.stringContaining('ADMIN_EMAILS') } });
    await expect(accounts.revokeAdmin('nobody@mate.test')).rejects.toMatchObject({ response: { error: 'No account with email nobody@mate.test' } });
  });
});
