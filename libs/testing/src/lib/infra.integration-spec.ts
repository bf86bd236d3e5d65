import { Client } from 'pg';
import Redis from 'ioredis';
import { createTestDatabase, createTestRedisNamespace } from './infra';
import { startTestMailbox } from './maildev';
import { createTransport } from 'nodemailer';

describe('test infrastructure', () => {
  it('gives each suite its own empty PostgreSQL database and removes it', async () => {
    const db = await createTestDatabase('infra');
    const client = new Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'");
    expect(rows[0].n).toBe(0);
    await client.end();
    await db.drop();
    const again = new Client({ connectionString: db.url });
    await expect(again.connect()).rejects.toThrow();
  });

  it('cleans only its own Redis keys', async () => {
    const ns = await createTestRedisNamespace('infra');
    const redis = new Redis(ns.url);
    await redis.set(`${ns.prefix}:a`, '1');
    await redis.set(`other-${ns.prefix}:b`, '1');
    await ns.cleanup();
    expect(await redis.exists(`${ns.prefix}:a`)).toBe(0);
    expect(await redis.exists(`other-${ns.prefix}:b`)).toBe(1);
    await redis.del(`other-${ns.prefix}:b`);
    await redis.quit();
  });

  it('receives mail over real SMTP', async () => {
    const mailbox = await startTestMailbox();
    try {
      await createTransport(mailbox.smtpUrl).sendMail({ from: 'a@mate.test', to: 'b@mate.test', subject: 'Hi', text: 'x' });
      const email = await mailbox.waitForEmail('b@mate.test');
      expect(email.subject).toBe('Hi');
    } finally {
      await mailbox.stop();
    }
  });
});
