import { Queue } from 'bullmq';
import type { EventName, EventPayloads, ServiceName } from '@mate/contracts';
import { eventQueueName, SERVICES } from '@mate/contracts';
import { createQueueConnection } from '@mate/server-kit';
import { eventEnvelope, runCommand, startServiceProcess, TEST_JWT_SECRET, type ServiceProcess } from '@mate/server-kit/testing';
import { createTestDatabase, createTestRedisNamespace, freePort, type TestDatabase } from '@mate/testing';
import { ADMIN_TEST_INTERNAL_TOKEN } from './admin-test-bed';

/** Where the owners and admin-service meet: one Redis key prefix (sessions, queues), one credential. */
export interface SharedInfra {
  redisUrl: string;
  prefix: string;
  cleanup(): Promise<void>;
}

export async function sharedInfra(label: string): Promise<SharedInfra> {
  const redis = await createTestRedisNamespace(label);
  return { redisUrl: redis.url, prefix: redis.prefix, cleanup: () => redis.cleanup() };
}

/** The settings admin-service needs to share the owners' Redis prefix and credential. */
export function adminEnvFor(infra: SharedInfra, owners: Partial<Record<'AUTH' | 'PROFILE' | 'MATCHING' | 'SAFETY', OwnerProcess>>) {
  const env: Record<string, string> = { REDIS_URL: infra.redisUrl, KEY_PREFIX: infra.prefix, INTERNAL_TOKEN: ADMIN_TEST_INTERNAL_TOKEN };
  for (const [name, owner] of Object.entries(owners)) if (owner) env[`${name}_SERVICE_URL`] = owner.url;
  return env;
}

export interface OwnerProcess {
  service: ServiceName;
  url: string;
  /** Delivers an event to the owner's consumer queue, as the relay would. */
  deliver<N extends EventName>(name: N, payload: EventPayloads[N], aggregate?: { type: string; id: string; version: number }): Promise<void>;
  /** One of the owner's own one-off commands on its database (auth's `grant-admin <email>`, `revoke-admin <email>`). */
  command(name: string, args?: string[]): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real owning service (its own source, `main.ts`) in its own process on its own test database,
 * on the shared Redis prefix, migrated first: the owner's internal routes and workers as deployed.
 */
export async function startOwner(service: ServiceName, infra: SharedInfra, env: Record<string, string> = {}): Promise<OwnerProcess> {
  const name = service.replace(/-service$/, '');
  const main = `apps/${service}/src/main.ts`;
  const db: TestDatabase = await createTestDatabase(`admin_owner_${name}`);
  const settings = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    OUTBOX_POLL_MS: '50',
    JWT_SECRET: TEST_JWT_SECRET,
    INTERNAL_TOKEN: ADMIN_TEST_INTERNAL_TOKEN,
    DATABASE_URL: db.url,
    REDIS_URL: infra.redisUrl,
    KEY_PREFIX: infra.prefix,
    ...env,
  };
  let proc: ServiceProcess;
  try {
    await runCommand(main, 'migrate', settings);
    proc = await startServiceProcess(main, await freePort(), settings, { health: '/health/ready' });
  } catch (e) {
    await db.drop();
    throw e;
  }
  const connection = createQueueConnection(infra.redisUrl);
  const queue = new Queue(eventQueueName(service), { connection, prefix: infra.prefix });
  return {
    service,
    url: proc.url,
    async deliver(eventName, payload, aggregate) {
      const producer = eventName.startsWith('profile.') ? SERVICES.profile : SERVICES.auth;
      const envelope = eventEnvelope(producer, eventName, payload);
      if (aggregate) Object.assign(envelope, { aggregateType: aggregate.type, aggregateId: aggregate.id, aggregateVersion: aggregate.version });
      await queue.add(eventName, envelope, { jobId: envelope.id });
    },
    async command(command, args = []) {
      await runCommand(main, command, settings, args);
    },
    async stop() {
      try {
        await queue.close();
        connection.disconnect();
        await proc.stop();
      } finally {
        await db.drop();
      }
    },
  };
}
