import { ApiError } from './errors';
import { createApiClient } from './client';
import { json, startTestServer, type Reply } from '../testing/http-test-server';

type Server = Awaited<ReturnType<typeof startTestServer>>;

describe('createApiClient against a real HTTP server', () => {
  let server: Server;
  let reply: Reply;
  let token: string | null;

  beforeAll(async () => {
    server = await startTestServer((req, res) => reply(req, res));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    token = 'tok-123';
  });

  const client = (extra: Parameters<typeof createApiClient>[0] = {}) =>
    createApiClient({ baseUrl: `${server.baseUrl}/`, getToken: () => token, ...extra });

  describe('auth', () => {
    it('logs in with JSON and without a bearer token', async () => {
      reply = (_req, res) => json(res, 200, { token: 'new', user: { id: 'u1', email: 'a@b.co', role: 'member' } });
      const result = await client().auth.login({ email: 'a@b.co', password: 'password1' });
      expect(result.token).toBe('new');
      expect(result.user.id).toBe('u1');
      const [req] = server.requests;
      expect(req.method).toBe('POST');
      expect(req.path).toBe('/api/auth/login');
      expect(req.body).toEqual({ email: 'a@b.co', password: 'password1' });
      expect(req.headers['content-type']).toBe('application/json');
      expect(req.headers.authorization).toBeUndefined();
    });

    it('registers with the payload as given', async () => {
      reply = (_req, res) => json(res, 201, { token: 't', user: { id: 'u2', email: 'c@d.co' } });
      await client().auth.register({ email: 'c@d.co', password: 'password1', age: 30 });
      expect(server.requests[0].path).toBe('/api/auth/register');
      expect(server.requests[0].body).toEqual({ email: 'c@d.co', password: 'password1', age: 30 });
    });

    it("throws the server's error field with the status", async () => {
      reply = (_req, res) => json(res, 401, { error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
      const onUnauthorized = jest.fn();
      const error = await client({ onUnauthorized })
        .auth.login({ email: 'a@b.co', password: 'wrong-pass' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        message: 'Invalid email or password',
        status: 401,
        serverMessage: 'Invalid email or password',
        code: 'INVALID_CREDENTIALS',
      });
      // No token was sent, so a 401 here is a wrong password, not a lost session.
      expect(onUnauthorized).not.toHaveBeenCalled();
    });

    it('falls back to the message field, then to the HTTP status text', async () => {
      reply = (_req, res) => json(res, 400, { message: 'email must be an email' });
      await expect(client().auth.register({ email: 'x', password: 'y' })).rejects.toThrow('email must be an email');
      reply = (_req, res) => {
        res.writeHead(503, 'Service Unavailable');
        res.end();
      };
      await expect(client().auth.login({ email: 'x', password: 'y' })).rejects.toThrow('Service Unavailable');
    });

    it("answers 'Authentication failed' when a 200 carries no token", async () => {
      reply = (_req, res) => json(res, 200, { ok: true });
      await expect(client().auth.login({ email: 'x@y.z', password: 'password1' })).rejects.toThrow(
        'Authentication failed',
      );
    });

    it('reads me with the bearer token, wrapped or not', async () => {
      reply = (_req, res) => json(res, 200, { user: { id: 'u1', email: 'a@b.co', role: 'admin' } });
      await expect(client().auth.me()).resolves.toMatchObject({ id: 'u1', role: 'admin' });
      expect(server.requests[0].headers.authorization).toBe('Bearer tok-123');
      reply = (_req, res) => json(res, 200, { id: 'u9', email: 'z@b.co' });
      await expect(client().auth.me()).resolves.toMatchObject({ id: 'u9' });
    });

    it('tells the app when a call made with a token comes back 401', async () => {
      reply = (_req, res) => json(res, 401, { error: 'Your session has expired. Please sign in again.' });
      const onUnauthorized = jest.fn();
      await expect(client({ onUnauthorized }).auth.me()).rejects.toThrow('Your session has expired');
      expect(onUnauthorized).toHaveBeenCalledTimes(1);
      expect(onUnauthorized.mock.calls[0][0]).toBeInstanceOf(ApiError);
      expect(onUnauthorized.mock.calls[0][1]).toBe('tok-123');
    });

    it('logs out with POST and accepts an empty 204', async () => {
      reply = (_req, res) => {
        res.writeHead(204);
        res.end();
      };
      await expect(client().auth.logout()).resolves.toBeUndefined();
      expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/api/auth/logout' });
    });

    it('uses the per-call fallback only when the server gives no error field', async () => {
      reply = (_req, res) => json(res, 500, { message: 'smtp down' });
      await expect(client().auth.forgotPassword('a@b.co')).rejects.toThrow('Failed to send reset email');
      reply = (_req, res) => json(res, 429, { error: 'Too many attempts. Please try again later.' });
      await expect(client().auth.forgotPassword('a@b.co')).rejects.toThrow('Too many attempts');
      expect(server.requests[0].body).toEqual({ email: 'a@b.co' });

      reply = (_req, res) => json(res, 400, {});
      await expect(client().auth.verifyResetToken('t')).rejects.toThrow('Invalid or expired reset link');
      await expect(client().auth.resetPassword({ token: 't', newPassword: 'password1' })).rejects.toThrow(
        'Failed to reset password',
      );
      expect(server.requests.at(-1)).toMatchObject({
        path: '/api/auth/reset-password',
        body: { token: 't', newPassword: 'password1' },
      });
    });

    it('requests an email change with the token passed in, not the getter', async () => {
      reply = (_req, res) => json(res, 200, { message: 'sent' });
      await client().auth.requestEmailChange({ newEmail: 'new@b.co' }, 'legacy-token');
      expect(server.requests[0]).toMatchObject({
        path: '/api/auth/request-email-change',
        body: { newEmail: 'new@b.co' },
      });
      expect(server.requests[0].headers.authorization).toBe('Bearer legacy-token');
    });

    it("refuses an email change without a token and never calls the server", async () => {
      await expect(client().auth.requestEmailChange({ newEmail: 'n@b.co' }, null)).rejects.toThrow(
        'Not authenticated',
      );
      expect(server.requests).toHaveLength(0);
    });

    it('verifies an email change and returns the new address', async () => {
      reply = (_req, res) => json(res, 200, { message: 'Email updated successfully', newEmail: 'new@b.co' });
      await expect(client().auth.verifyEmailChange('abc')).resolves.toEqual({
        message: 'Email updated successfully',
        newEmail: 'new@b.co',
      });
      reply = (_req, res) => json(res, 400, {});
      await expect(client().auth.verifyEmailChange('abc')).rejects.toThrow('Failed to verify email change');
    });

    it('cancels an email change with the link token and no bearer token', async () => {
      reply = (_req, res) =>
        json(res, 200, { message: 'The email change was cancelled. Your account keeps its current address.' });
      await expect(client().auth.cancelEmailChange('cancel-tok')).resolves.toEqual({
        message: 'The email change was cancelled. Your account keeps its current address.',
      });
      expect(server.requests[0]).toMatchObject({
        method: 'POST',
        path: '/api/auth/cancel-email-change',
        body: { token: 'cancel-tok' },
      });
      expect(server.requests[0].headers.authorization).toBeUndefined();
    });

    it("gives the server's reason for a refused cancellation, and its own fallback without one", async () => {
      reply = (_req, res) => json(res, 400, { error: 'This cancellation link is invalid or has expired.' });
      await expect(client().auth.cancelEmailChange('used')).rejects.toThrow(
        'This cancellation link is invalid or has expired.',
      );
      reply = (_req, res) => json(res, 502, {});
      await expect(client().auth.cancelEmailChange('t')).rejects.toThrow('Failed to cancel email change');
    });
  });

  describe('verification', () => {
    it('resends with the bearer token and verifies without one', async () => {
      reply = (_req, res) => json(res, 200, { message: 'Verification email sent' });
      await client().verification.resend();
      await client().verification.verify('link-token');
      expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/api/verification/resend' });
      expect(server.requests[0].headers.authorization).toBe('Bearer tok-123');
      expect(server.requests[1]).toMatchObject({ path: '/api/verification/verify', body: { token: 'link-token' } });
      expect(server.requests[1].headers.authorization).toBeUndefined();
    });

    it('has its own fallbacks', async () => {
      reply = (_req, res) => json(res, 500, {});
      await expect(client().verification.resend()).rejects.toThrow('Failed to send verification email');
      await expect(client().verification.verify('x')).rejects.toThrow('Verification failed');
      reply = (_req, res) => json(res, 400, { error: 'This verification link is invalid or has expired.' });
      await expect(client().verification.verify('x')).rejects.toThrow(
        'This verification link is invalid or has expired.',
      );
    });
  });

  describe('sessions', () => {
    const session = {
      id: 's 1',
      deviceInfo: 'Chrome on macOS',
      lastActivity: '2026-01-01T00:00:00Z',
      createdAt: '2026-01-01T00:00:00Z',
      isCurrent: true,
    };

    it('lists sessions whether or not the server wraps them', async () => {
      reply = (_req, res) => json(res, 200, [session]);
      await expect(client().sessions.mySessions()).resolves.toEqual([session]);
      reply = (_req, res) => json(res, 200, { sessions: [session] });
      await expect(client().sessions.mySessions()).resolves.toEqual([session]);
      expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/sessions/my' });
    });

    it('deletes one session and all the others', async () => {
      reply = (_req, res) => json(res, 200, { message: 'ok' });
      await client().sessions.deleteSession('s 1');
      await client().sessions.deleteOtherSessions();
      expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        'DELETE /api/sessions/s%201',
        'DELETE /api/sessions/all/except-current',
      ]);
    });

    it('uses the sessions fallbacks', async () => {
      reply = (_req, res) => json(res, 500, {});
      await expect(client().sessions.mySessions()).rejects.toThrow('Failed to fetch sessions');
      await expect(client().sessions.deleteSession('a')).rejects.toThrow('Failed to delete session');
      await expect(client().sessions.deleteOtherSessions()).rejects.toThrow('Failed to logout all sessions');
    });
  });

  describe('profile', () => {
    it('gets my profile with a timestamp, no caching, and normalises snake_case flags', async () => {
      reply = (_req, res) =>
        json(res, 200, { id: 'p1', user_id: 'u1', name: 'Ada', is_verified: true, onboarding_completed: false });
      const inits: RequestInit[] = [];
      const recordingFetch: typeof fetch = (input, init) => {
        inits.push(init ?? {});
        return fetch(input, init);
      };
      const before = Date.now();
      const profile = await client({ fetch: recordingFetch }).profile.getMyProfile();
      expect(profile).toMatchObject({
        id: 'p1',
        userId: 'u1',
        name: 'Ada',
        isVerified: true,
        profileCompleted: false,
        onboardingCompleted: false,
        interests: [],
        photos: [],
      });
      const [req] = server.requests;
      expect(req.path).toBe('/api/profile/me');
      expect(Number(req.query.get('t'))).toBeGreaterThanOrEqual(before);
      expect(req.headers.authorization).toBe('Bearer tok-123');
      expect(inits[0].cache).toBe('no-store');
    });

    it("fails with 'Failed to get profile' when the server says nothing", async () => {
      reply = (_req, res) => json(res, 502, {});
      await expect(client().profile.getMyProfile()).rejects.toThrow('Failed to get profile');
    });

    it('completes onboarding', async () => {
      reply = (_req, res) => json(res, 200, { onboardingCompleted: true });
      await client().profile.completeOnboarding();
      expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/api/profile/me/complete-onboarding' });
      reply = (_req, res) => json(res, 500, {});
      await expect(client().profile.completeOnboarding()).rejects.toThrow('Failed to complete onboarding');
    });
  });

  it('turns an unreachable server into an ApiError with status 0', async () => {
    const closed = await startTestServer((_req, res) => json(res, 200, {}));
    const baseUrl = closed.baseUrl;
    await closed.close();
    const error = await createApiClient({ baseUrl }).profile.getMyProfile().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, message: 'Failed to get profile' });
    const authError = await createApiClient({ baseUrl })
      .auth.login({ email: 'a@b.co', password: 'x' })
      .catch((e: unknown) => e);
    expect(authError).toMatchObject({ status: 0, message: 'An error occurred' });
  });
});
