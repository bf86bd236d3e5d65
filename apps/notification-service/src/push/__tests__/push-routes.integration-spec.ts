import {
  ErrorCode,
  INTERNAL_TOKEN_HEADER,
  memberExportPath,
  NotificationErrorCode,
  NotificationMessages,
  type NotificationsExportPart,
} from '@mate/contracts';
import { startServiceTestBed, type ServiceTestBed } from '@mate/server-kit/testing';
import webpush from 'web-push';
import { AppModule } from '../../app.module';
import { PUSH_TLS_OPTIONS } from '../push-settings';
import { MAX_SUBSCRIPTIONS_PER_MEMBER } from '../push.repository';
import { Browser, PushServiceStandIn } from './push-service-stand-in';

jest.setTimeout(60_000);

const INTERNAL_TOKEN = 'notification-test-internal-credential';

describe('notification-service push routes (real PostgreSQL and Redis)', () => {
  const vapid = webpush.generateVAPIDKeys();
  const standIn = new PushServiceStandIn();
  let bed: ServiceTestBed;

  beforeAll(async () => {
    await standIn.start();
    bed = await startServiceTestBed((e) => AppModule.forRoot(e), {
      label: 'notification_push_routes',
      env: {
        WORKERS: 'off',
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        VAPID_SUBJECT: 'mailto:push@mate.test',
        PUSH_ALLOW_LOOPBACK_ENDPOINTS: 'on',
        INTERNAL_TOKEN,
      },
      overrides: [{ provide: PUSH_TLS_OPTIONS, useValue: { ca: standIn.certificate } }],
    });
  });

  afterAll(async () => {
    await bed?.close();
    await standIn.stop();
  });

  const endpointsOf = async (userId: string): Promise<string[]> =>
    (
      await bed.dataSource.query<{ endpoint: string }[]>(
        'SELECT endpoint FROM push_subscription WHERE user_id = $1 ORDER BY created_at',
        [userId],
      )
    ).map((r) => r.endpoint);

  it('gives a signed-in member the VAPID public key', async () => {
    const member = await bed.signIn();
    const res = await bed.call('GET', '/api/notifications/vapid-public-key', { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ publicKey: vapid.publicKey });
    expect((await bed.call('GET', '/api/notifications/vapid-public-key')).status).toBe(401);
  });

  it('needs a session for everything else', async () => {
    const browser = new Browser(standIn);
    for (const [method, path, body] of [
      ['POST', '/api/notifications/subscribe', browser.subscription()],
      ['DELETE', '/api/notifications/unsubscribe', undefined],
      ['GET', '/api/notifications/preferences', undefined],
      ['PATCH', '/api/notifications/preferences', { newLikes: false }],
    ] as const) {
      const res = await bed.call(method, path, { body });
      expect([method, path, res.status]).toEqual([method, path, 401]);
      expect(typeof (res.body as { error?: unknown }).error).toBe('string');
    }
  });

  it('keeps several devices per member and unsubscribes one (body or query) or all', async () => {
    const member = await bed.signIn();
    const [phone, laptop, tablet] = [new Browser(standIn), new Browser(standIn), new Browser(standIn)];
    for (const device of [phone, laptop, tablet]) {
      const res = await bed.call('POST', '/api/notifications/subscribe', {
        token: member.token,
        body: device.subscription(),
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ message: NotificationMessages.subscribed });
    }
    // The same device again (new keys): still one subscription.
    const again = new Browser(standIn);
    Object.assign(again, { path: phone.path });
    expect(
      (
        await bed.call('POST', '/api/notifications/subscribe', {
          token: member.token,
          body: again.subscription(),
        })
      ).status,
    ).toBe(201);
    expect(await endpointsOf(member.userId)).toHaveLength(3);

    let res = await bed.call('DELETE', '/api/notifications/unsubscribe', {
      token: member.token,
      body: { endpoint: laptop.endpoint },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: NotificationMessages.unsubscribed });
    expect((await endpointsOf(member.userId)).sort()).toEqual([phone.endpoint, tablet.endpoint].sort());

    res = await bed.call(
      'DELETE',
      `/api/notifications/unsubscribe?endpoint=${encodeURIComponent(tablet.endpoint)}`,
      { token: member.token },
    );
    expect(res.status).toBe(200);
    expect(await endpointsOf(member.userId)).toEqual([phone.endpoint]);

    // Another member cannot remove it.
    const other = await bed.signIn();
    await bed.call('DELETE', '/api/notifications/unsubscribe', {
      token: other.token,
      body: { endpoint: phone.endpoint },
    });
    expect(await endpointsOf(member.userId)).toEqual([phone.endpoint]);

    await bed.call('POST', '/api/notifications/subscribe', {
      token: member.token,
      body: laptop.subscription(),
    });
    res = await bed.call('DELETE', '/api/notifications/unsubscribe', { token: member.token });
    expect(res.status).toBe(200);
    expect(await endpointsOf(member.userId)).toEqual([]);
  });

  it(`keeps at most ${MAX_SUBSCRIPTIONS_PER_MEMBER} devices per member, dropping the oldest`, async () => {
    const member = await bed.signIn();
    const devices = Array.from({ length: MAX_SUBSCRIPTIONS_PER_MEMBER + 2 }, () => new Browser(standIn));
    for (const d of devices) {
      expect(
        (
          await bed.call('POST', '/api/notifications/subscribe', {
            token: member.token,
            body: d.subscription(),
          })
        ).status,
      ).toBe(201);
    }
    const kept = await endpointsOf(member.userId);
    expect(kept).toHaveLength(MAX_SUBSCRIPTIONS_PER_MEMBER);
    expect(kept).not.toContain(devices[0]?.endpoint);
    expect(kept).not.toContain(devices[1]?.endpoint);
    expect(kept).toContain(devices[devices.length - 1]?.endpoint);
  });

  it('refuses a subscription that is not one (400 with a message), storing nothing', async () => {
    const member = await bed.signIn();
    const good = new Browser(standIn).subscription();
    const cases: [unknown, string][] = [
      [{ ...good, endpoint: 'http://127.0.0.1:1/push' }, NotificationMessages.endpointNotAllowed],
      [{ ...good, endpoint: 'https://10.0.0.7/push' }, NotificationMessages.endpointNotAllowed],
      [
        { ...good, endpoint: 'https://169.254.169.254/latest/meta-data/' },
        NotificationMessages.endpointNotAllowed,
      ],
      [{ ...good, endpoint: 'https://[fd00::1]/push' }, NotificationMessages.endpointNotAllowed],
      [{ ...good, endpoint: 'https://metadata.google.internal/x' }, NotificationMessages.endpointNotAllowed],
      [{ ...good, endpoint: 42 }, NotificationMessages.invalidSubscription],
      [{ endpoint: good.endpoint }, NotificationMessages.invalidSubscription],
      [{ ...good, keys: { p256dh: good.keys.p256dh } }, NotificationMessages.invalidSubscription],
      [{ ...good, keys: { ...good.keys, p256dh: 'BAAA' } }, NotificationMessages.invalidSubscription],
      [
        { ...good, keys: { ...good.keys, auth: Buffer.alloc(8).toString('base64url') } },
        NotificationMessages.invalidSubscription,
      ],
      [{ ...good, keys: { ...good.keys, auth: 'not base64!' } }, NotificationMessages.invalidSubscription],
      [{ ...good, extra: true }, 'Unknown field: extra'],
    ];
    for (const [body, error] of cases) {
      const res = await bed.call('POST', '/api/notifications/subscribe', { token: member.token, body });
      expect([JSON.stringify(body).slice(0, 60), res.status, (res.body as { error: string }).error]).toEqual([
        JSON.stringify(body).slice(0, 60),
        400,
        error,
      ]);
    }
    // A rule of the service says its cause; a malformed subscription is the DTO's refusal.
    const refusedCode = async (body: unknown) =>
      ((await bed.call('POST', '/api/notifications/subscribe', { token: member.token, body })).body as { code: string }).code;
    expect(await refusedCode({ ...good, endpoint: 'https://10.0.0.7/push' })).toBe(NotificationErrorCode.EndpointNotAllowed);
    expect(await refusedCode({ ...good, endpoint: 42 })).toBe(ErrorCode.ValidationFailed);
    expect(await endpointsOf(member.userId)).toEqual([]);
  });

  it('limits subscribe calls per member (refused endpoints count too): 429 with Retry-After', async () => {
    const member = await bed.signIn();
    for (let i = 0; i < 30; i++) {
      const body =
        i % 2
          ? new Browser(standIn).subscription()
          : { ...new Browser(standIn).subscription(), endpoint: 'https://10.0.0.1/x' };
      expect(
        (await bed.call('POST', '/api/notifications/subscribe', { token: member.token, body })).status,
      ).toBe(i % 2 ? 201 : 400);
    }
    const res = await bed.call('POST', '/api/notifications/subscribe', {
      token: member.token,
      body: new Browser(standIn).subscription(),
    });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ error: NotificationMessages.tooManySubscriptions });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another member is not affected.
    const other = await bed.signIn();
    expect(
      (
        await bed.call('POST', '/api/notifications/subscribe', {
          token: other.token,
          body: new Browser(standIn).subscription(),
        })
      ).status,
    ).toBe(201);
  });

  it('gives the preferences, all on but private previews, and changes one key at a time', async () => {
    const member = await bed.signIn();
    let res = await bed.call('GET', '/api/notifications/preferences', { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      newMatches: true,
      newMessages: true,
      newLikes: true,
      safetyAlerts: true,
      adminActions: true,
      privatePreviews: false,
    });

    res = await bed.call('PATCH', '/api/notifications/preferences', {
      token: member.token,
      body: { newLikes: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ newLikes: false, newMatches: true });
    res = await bed.call('PATCH', '/api/notifications/preferences', {
      token: member.token,
      body: { privatePreviews: true },
    });
    expect(res.body).toEqual({
      newMatches: true,
      newMessages: true,
      newLikes: false,
      safetyAlerts: true,
      adminActions: true,
      privatePreviews: true,
    });
    expect((await bed.call('GET', '/api/notifications/preferences', { token: member.token })).body).toEqual(
      res.body,
    );

    // Another member's are their own.
    const other = await bed.signIn();
    expect(
      (await bed.call('GET', '/api/notifications/preferences', { token: other.token })).body,
    ).toMatchObject({ newLikes: true });
  });

  it('refuses a PATCH that is not exactly one known key with true or false (400), changing nothing', async () => {
    const member = await bed.signIn();
    const cases: [unknown, string][] = [
      [{ newPokes: false }, NotificationMessages.unknownPreference],
      [{ newLikes: false, marketing: true }, NotificationMessages.unknownPreference],
      [{ newLikes: false, newMatches: false }, 'Send one changed preference at a time'],
      [{}, 'Send one changed preference at a time'],
      [{ newLikes: 'no' }, 'newLikes must be true or false'],
      [{ newLikes: null }, 'newLikes must be true or false'],
      [[{ newLikes: false }], 'Send the changed preference, e.g. { "newLikes": false }'],
    ];
    for (const [body, error] of cases) {
      const res = await bed.call('PATCH', '/api/notifications/preferences', { token: member.token, body });
      expect([JSON.stringify(body), res.status, (res.body as { error: string }).error]).toEqual([
        JSON.stringify(body),
        400,
        error,
      ]);
    }
    const unknown = await bed.call('PATCH', '/api/notifications/preferences', { token: member.token, body: { newPokes: false } });
    expect(unknown.body).toMatchObject({ code: NotificationErrorCode.UnknownPreference });
    expect(
      (await bed.call('GET', '/api/notifications/preferences', { token: member.token })).body,
    ).toMatchObject({
      newLikes: true,
      newMatches: true,
    });
  });

  it("serves the member's export part to the internal caller only: preferences and devices' origins, never keys", async () => {
    const member = await bed.signIn();
    const device = new Browser(standIn);
    await bed.call('POST', '/api/notifications/subscribe', {
      token: member.token,
      body: device.subscription(),
    });
    await bed.call('PATCH', '/api/notifications/preferences', {
      token: member.token,
      body: { newMessages: false },
    });

    expect((await bed.call('GET', memberExportPath(member.userId), { token: member.token })).status).toBe(
      403,
    );
    const res = await bed.call<NotificationsExportPart>('GET', memberExportPath(member.userId), {
      headers: { [INTERNAL_TOKEN_HEADER]: INTERNAL_TOKEN },
    });
    expect(res.status).toBe(200);
    expect(res.body.preferences).toMatchObject({ newMessages: false, newLikes: true });
    expect(res.body.subscriptions).toEqual([
      {
        endpointOrigin: `https://127.0.0.1:${standIn.port}`,
        createdAt: expect.any(String),
        lastUsedAt: null,
      },
    ]);
    expect(JSON.stringify(res.body)).not.toContain(device.subscription().keys.p256dh);
    expect(JSON.stringify(res.body)).not.toContain(device.path);
  });
});

describe('notification-service push routes without the loopback test flag, and without VAPID keys', () => {
  const vapid = webpush.generateVAPIDKeys();
  const standIn = new PushServiceStandIn();
  let strict: ServiceTestBed;
  let unconfigured: ServiceTestBed;

  beforeAll(async () => {
    await standIn.start();
    strict = await startServiceTestBed((e) => AppModule.forRoot(e), {
      label: 'notification_push_strict',
      env: { WORKERS: 'off', VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey },
    });
    unconfigured = await startServiceTestBed((e) => AppModule.forRoot(e), {
      label: 'notification_push_off',
      env: { WORKERS: 'off' },
    });
  });

  afterAll(async () => {
    await strict?.close();
    await unconfigured?.close();
    await standIn.stop();
  });

  it('refuses loopback endpoints in production settings', async () => {
    const member = await strict.signIn();
    for (const endpoint of [
      'https://127.0.0.1/push',
      'https://localhost/push',
      'https://[::1]/push',
      `https://127.0.0.1:${standIn.port}/push`,
    ]) {
      const res = await strict.call('POST', '/api/notifications/subscribe', {
        token: member.token,
        body: { ...new Browser(standIn).subscription(), endpoint },
      });
      expect([endpoint, res.status, (res.body as { error: string }).error]).toEqual([
        endpoint,
        400,
        NotificationMessages.endpointNotAllowed,
      ]);
    }
  });

  it('answers 503 pushNotConfigured for the key and subscribing when no VAPID keys are set; preferences still work', async () => {
    const member = await unconfigured.signIn();
    let res = await unconfigured.call('GET', '/api/notifications/vapid-public-key', { token: member.token });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: NotificationMessages.pushNotConfigured });
    res = await unconfigured.call('POST', '/api/notifications/subscribe', {
      token: member.token,
      body: new Browser(standIn).subscription(),
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: NotificationMessages.pushNotConfigured });
    expect(
      (await unconfigured.call('GET', '/api/notifications/preferences', { token: member.token })).status,
    ).toBe(200);
  });
});
