import { DEFAULT_NOTIFICATION_PREFERENCES, GdprMessages, type MemberDataExport } from '@mate/contracts';
import { createApiClient } from './client';
import { fails, ok, startTestServer, type Reply } from '../testing/http-test-server';

type Server = Awaited<ReturnType<typeof startTestServer>>;

const subscription = {
  endpoint: 'https://push.example.org/send/abc',
  expirationTime: null,
  keys: { p256dh: 'BPublicKey', auth: 'authSecret' },
};

describe('notifications and privacy against a real HTTP server', () => {
  let server: Server;
  let reply: Reply;

  beforeAll(async () => {
    server = await startTestServer((req, res) => reply(req, res));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  const client = () => createApiClient({ baseUrl: server.baseUrl, getToken: () => 'tok-123' });
  const sent = () => server.requests.map((r) => ({ call: `${r.method} ${r.path}`, body: r.body }));

  describe('notifications', () => {
    it("reads the VAPID public key; 'Failed to get VAPID public key' for a refusal or an answer without one", async () => {
      reply = ok({ publicKey: 'BKey-base64url' });
      await expect(client().notifications.getVapidPublicKey()).resolves.toBe('BKey-base64url');
      expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/notifications/vapid-public-key' });

      reply = fails(503);
      await expect(client().notifications.getVapidPublicKey()).rejects.toThrow('Failed to get VAPID public key');
      reply = ok({ publicKey: '' });
      await expect(client().notifications.getVapidPublicKey()).rejects.toThrow('Failed to get VAPID public key');
      reply = fails(503, { error: 'Push notifications are not configured' });
      await expect(client().notifications.getVapidPublicKey()).rejects.toThrow('Push notifications are not configured');
    });

    it('sends the subscription as JSON with the bearer token, and unsubscribes one endpoint or all', async () => {
      reply = ok({ message: 'Subscribed' });
      await client().notifications.subscribe(subscription);
      await client().notifications.unsubscribe(subscription.endpoint);
      await client().notifications.unsubscribe();
      expect(sent()).toEqual([
        { call: 'POST /api/notifications/subscribe', body: subscription },
        { call: 'DELETE /api/notifications/unsubscribe', body: { endpoint: subscription.endpoint } },
        { call: 'DELETE /api/notifications/unsubscribe', body: undefined },
      ]);
      expect(server.requests[0].headers.authorization).toBe('Bearer tok-123');

      reply = fails(400, { error: 'Invalid push subscription' });
      await expect(client().notifications.subscribe(subscription)).rejects.toMatchObject({
        message: 'Invalid push subscription',
        status: 400,
      });
      reply = fails(500);
      await expect(client().notifications.subscribe(subscription)).rejects.toThrow('Failed to subscribe to notifications');
      await expect(client().notifications.unsubscribe()).rejects.toThrow('Failed to unsubscribe from notifications');
    });

    it('reads the preferences, a missing or odd switch taking its default', async () => {
      reply = ok({ ...DEFAULT_NOTIFICATION_PREFERENCES, newLikes: false, privatePreviews: true });
      await expect(client().notifications.getPreferences()).resolves.toEqual({
        ...DEFAULT_NOTIFICATION_PREFERENCES,
        newLikes: false,
        privatePreviews: true,
      });
      expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/notifications/preferences' });

      reply = ok({ newMatches: false, newMessages: 'no', userId: 'u1' });
      await expect(client().notifications.getPreferences()).resolves.toEqual({
        ...DEFAULT_NOTIFICATION_PREFERENCES,
        newMatches: false,
      });
      reply = fails(500);
      await expect(client().notifications.getPreferences()).rejects.toThrow('Failed to get notification preferences');
    });

    it('patches only the changed key', async () => {
      reply = ok({ ...DEFAULT_NOTIFICATION_PREFERENCES, newLikes: false });
      await client().notifications.updatePreferences({ newLikes: false });
      expect(sent()).toEqual([{ call: 'PATCH /api/notifications/preferences', body: { newLikes: false } }]);

      reply = fails(400, { error: 'Unknown notification preference' });
      await expect(client().notifications.updatePreferences({ newLikes: true })).rejects.toThrow(
        'Unknown notification preference',
      );
      reply = fails(502);
      await expect(client().notifications.updatePreferences({ newLikes: true })).rejects.toThrow(
        'Failed to update notification preferences',
      );
    });
  });

  describe('gdpr', () => {
    it("answers the export's data; 'Failed to export data' without an error field or without data", async () => {
      const data = { format: 'mate-data-export', formatVersion: 1, userId: 'u1' } as unknown as MemberDataExport;
      reply = ok({ data });
      await expect(client().gdpr.exportData()).resolves.toEqual(data);
      expect(sent()).toEqual([{ call: 'POST /api/gdpr/export', body: undefined }]);
      expect(server.requests[0].headers.authorization).toBe('Bearer tok-123');

      reply = ok({});
      await expect(client().gdpr.exportData()).rejects.toThrow('Failed to export data');
      reply = fails(500);
      await expect(client().gdpr.exportData()).rejects.toThrow('Failed to export data');
      reply = fails(429, { error: GdprMessages.tooManyExports });
      await expect(client().gdpr.exportData()).rejects.toMatchObject({ message: GdprMessages.tooManyExports, status: 429 });
    });

    it("sends the typed email (trimmed) as confirmEmail; the server's error or 'Failed to delete account'", async () => {
      reply = ok({ message: GdprMessages.accountDeleted });
      await expect(client().gdpr.deleteAccount('  ada@example.com ')).resolves.toEqual({
        message: GdprMessages.accountDeleted,
      });
      expect(sent()).toEqual([{ call: 'POST /api/gdpr/delete-account', body: { confirmEmail: 'ada@example.com' } }]);

      reply = fails(400, { error: GdprMessages.confirmEmailMismatch });
      await expect(client().gdpr.deleteAccount('bea@example.com')).rejects.toMatchObject({
        message: GdprMessages.confirmEmailMismatch,
        serverMessage: GdprMessages.confirmEmailMismatch,
      });
      reply = fails(500);
      await expect(client().gdpr.deleteAccount('ada@example.com')).rejects.toThrow('Failed to delete account');
    });
  });
});
