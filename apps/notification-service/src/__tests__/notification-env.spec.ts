import webpush from 'web-push';
import { loadEnv } from '@mate/server-kit';
import { NotificationEnv } from '../notification.env';
import { PushSettings } from '../push/push-settings';

const base = { DATABASE_URL: 'postgres://x' };

describe('notification-service settings: the VAPID key pair', () => {
  const keys = webpush.generateVAPIDKeys();

  it('runs without a pair: push is off', () => {
    const settings = new PushSettings(loadEnv(NotificationEnv, base));
    expect(settings.configured).toBe(false);
    expect(settings.policy).toEqual({ allowLoopback: false });
  });

  it('takes a pair, with loopback endpoints off unless the test flag is on', () => {
    const env = loadEnv(NotificationEnv, {
      ...base,
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
    });
    expect(new PushSettings(env).vapid).toEqual({ ...keys, subject: 'mailto:admin@mate.local' });
    expect(
      new PushSettings(loadEnv(NotificationEnv, { ...base, PUSH_ALLOW_LOOPBACK_ENDPOINTS: 'on' })).policy,
    ).toEqual({ allowLoopback: true });
  });

  it('refuses half a pair, a key that is not one, and a bad subject, never showing the private key', () => {
    expect(() => loadEnv(NotificationEnv, { ...base, VAPID_PUBLIC_KEY: keys.publicKey })).toThrow(
      /VAPID_PRIVATE_KEY=\(hidden\): .*VAPID_PRIVATE_KEY is required/,
    );
    expect(() => loadEnv(NotificationEnv, { ...base, VAPID_PRIVATE_KEY: keys.privateKey })).toThrow(
      /VAPID_PUBLIC_KEY is required/,
    );
    let message = '';
    try {
      loadEnv(NotificationEnv, {
        ...base,
        VAPID_PUBLIC_KEY: keys.publicKey,
        VAPID_PRIVATE_KEY: `${keys.privateKey}x`,
      });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/VAPID_PRIVATE_KEY must be a P-256 private key/);
    expect(message).not.toContain(keys.privateKey);
    expect(() =>
      loadEnv(NotificationEnv, {
        ...base,
        VAPID_PUBLIC_KEY: 'REPLACE_ME',
        VAPID_PRIVATE_KEY: keys.privateKey,
      }),
    ).toThrow(/VAPID_PUBLIC_KEY must be a P-256 public key/);
    expect(() => loadEnv(NotificationEnv, { ...base, VAPID_SUBJECT: 'admin@mate.local' })).toThrow(
      /VAPID_SUBJECT must be a mailto:/,
    );
  });
});
