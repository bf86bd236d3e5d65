import { Client } from 'pg';
import Redis from 'ioredis';
import { createTestDatabase, createTestRedisNamespace, testInfra } from './infra';
import { containerPolicy, containerRuntime, missingImage, TEST_INFRA_LABEL } from './test-containers';
import { startTestMailbox } from './maildev';
import { createTransport } from 'nodemailer';

/** Where the suite should run: TESTCONTAINERS decides; in auto mode, whether an engine answers with the images. */
async function expectedSource(): Promise<'testcontainers' | 'local'> {
  const policy = containerPolicy();
  if (policy !== 'auto') return policy === 'on' ? 'testcontainers' : 'local';
  const client = await containerRuntime().catch(() => null);
  return client && !(await missingImage(client)) ? 'testcontainers' : 'local';
}

describe('test infrastructure', () => {
  // Containers, when the suite runs on them, start here (a cold PostgreSQL takes a while on CI).
  beforeAll(() => testInfra(), 180_000);

  it('runs on containers when TESTCONTAINERS says so or an engine answers, else on the local servers', async () => {
    const infra = await testInfra();
    expect(infra.source).toBe(await expectedSource());
    const pg = new Client({ connectionString: infra.postgresAdminUrl });
    await pg.connect();
    const redis = new Redis(infra.redisUrl);
    try {
      const { rows } = await pg.query<{ data_directory: string }>('SHOW data_directory');
      expect(await redis.ping()).toBe('PONG');
      if (infra.source === 'testcontainers') {
        // The servers are the images' own: their data folder, ports other than the local servers',
        // and containers the engine reports running with the test infrastructure's label.
        expect(rows[0].data_directory).toBe('/var/lib/postgresql/data');
        expect(new URL(infra.postgresAdminUrl).port).not.toBe('5432');
        expect(new URL(infra.redisUrl).port).not.toBe('6379');
        const client = await containerRuntime();
        const containers = await Promise.all(infra.containerIds.map((id) => client.container.getById(id).inspect()));
        expect(containers.map((c) => [c.State.Running, TEST_INFRA_LABEL in c.Config.Labels])).toEqual([
          [true, true],
          [true, true],
        ]);
      } else {
        expect(infra.postgresAdminUrl).toBe(
          process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
        );
        expect(infra.redisUrl).toBe(process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
      }
    } finally {
      await pg.end();
      await redis.quit();
    }
  });

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
  }, 30_000);
});
