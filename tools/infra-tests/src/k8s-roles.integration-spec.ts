import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Client } from 'pg';
import { eventQueueName, SERVICES } from '@mate/contracts';
import { runCommand, startServiceProcess, waitFor, type ServiceProcess } from '@mate/server-kit/testing';
import { createTestDatabase, createTestRedisNamespace, freePort, type TestDatabase } from '@mate/testing';
import { K8sResource, podTemplate, render } from './lib/kustomize';
import { rootPath } from './lib/workspace';

/**
 * The API / worker / relay split (docs/adr/0019-kubernetes-at-scale.md) rests on the kit: started
 * as each Deployment starts it, a service still serves the probes the manifests point at, runs its
 * workers only where WORKERS=on, and publishes its outbox only where OUTBOX_RELAY=on. chat-service
 * (an event consumer and an outbox) runs three times from source, each with the plain settings its
 * rendered base Deployment gives the container, on a throwaway database and Redis prefix.
 */
const SERVICE = 'chat-service';
const MAIN = 'apps/chat-service/src/main.ts';
const base = render(rootPath('k8s/base'));

/** The literal env values of a Deployment's app container (secrets come from the test instead). */
function settingsOf(name: string): { env: Record<string, string>; readinessPath: string; livenessPath: string } {
  const deployment = base.resources.find((r) => r.kind === 'Deployment' && r.metadata.name === name) as K8sResource;
  const container = podTemplate(deployment)?.spec.containers.find((c) => c.name === 'app');
  if (!container) throw new Error(`${name}: no app container`);
  const env = Object.fromEntries(
    (container.env ?? []).filter((e) => e.value !== undefined && e.name !== 'PORT').map((e) => [e.name, e.value as string]),
  );
  return {
    env,
    readinessPath: container.readinessProbe?.httpGet?.path ?? '',
    livenessPath: container.livenessProbe?.httpGet?.path ?? '',
  };
}

interface Readiness {
  status: string;
  checks: Record<string, string>;
}

describe(`${SERVICE} started as its API, worker and relay Deployments (real PostgreSQL and Redis)`, () => {
  const roles = { api: SERVICE, worker: `${SERVICE}-worker`, relay: `${SERVICE}-relay` } as const;
  const settings = Object.fromEntries(Object.entries(roles).map(([role, name]) => [role, settingsOf(name)])) as Record<
    keyof typeof roles,
    ReturnType<typeof settingsOf>
  >;
  let db: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  const processes: Partial<Record<keyof typeof roles, ServiceProcess>> = {};

  beforeAll(async () => {
    [db, ns] = await Promise.all([createTestDatabase('k8s_roles'), createTestRedisNamespace('k8s_roles')]);
    const common = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: db.url,
      REDIS_URL: ns.url,
      KEY_PREFIX: ns.prefix,
      JWT_SECRET: 'k8s-roles-test-jwt-secret-0123456789',
      INTERNAL_TOKEN: 'k8s-roles-test-internal-token-0123456789',
    };
    await runCommand(MAIN, 'migrate', common);
    const started = await Promise.all(
      (Object.keys(roles) as Array<keyof typeof roles>).map(async (role) => {
        const port = await freePort();
        return [role, await startServiceProcess(MAIN, port, { ...common, ...settings[role].env }, { health: '/health/live' })] as const;
      }),
    );
    for (const [role, process] of started) processes[role] = process;
  }, 180_000);

  afterAll(async () => {
    await Promise.all(Object.values(processes).map((p) => p?.stop()));
    await ns?.cleanup();
    await db?.drop();
  }, 60_000);

  const readiness = async (role: keyof typeof roles): Promise<{ status: number; body: Readiness }> => {
    const res = await fetch(`${processes[role]?.url}${settings[role].readinessPath}`);
    return { status: res.status, body: (await res.json()) as Readiness };
  };

  it('the manifests set the switches the split needs', () => {
    expect(Object.fromEntries(Object.entries(settings).map(([role, s]) => [role, [s.env.WORKERS, s.env.OUTBOX_RELAY]]))).toEqual({
      api: ['off', 'off'],
      worker: ['on', 'off'],
      relay: ['off', 'on'],
    });
  });

  it.each(Object.keys(roles) as Array<keyof typeof roles>)(
    'the %s pod answers its liveness and readiness probes on the port it is given',
    async (role) => {
      const live = await fetch(`${processes[role]?.url}${settings[role].livenessPath}`);
      expect({ role, live: live.status }).toEqual({ role, live: 200 });
      const ready = await waitFor(async () => {
        const r = await readiness(role);
        return r.status === 200 ? r : undefined;
      }, { timeoutMs: 30_000, intervalMs: 100, what: `${role} ready` });
      expect(ready.body.status).toBe('ok');
    },
  );

  it("only the worker pod runs queue workers, and its readiness covers them", async () => {
    const queueChecks = async (role: keyof typeof roles) =>
      Object.keys((await readiness(role)).body.checks)
        .filter((name) => name.startsWith('queue:'))
        .sort();
    expect(await queueChecks('api')).toEqual([]);
    expect(await queueChecks('relay')).toEqual([]);
    expect(await queueChecks('worker')).toContain(`queue:${eventQueueName(SERVICES.chat)}`);
  });

  it('the relay pod publishes what the others write to the outbox', async () => {
    const id = randomUUID();
    const client = new Client({ connectionString: db.url });
    await client.connect();
    const queue = new Queue(eventQueueName(SERVICES.notification), { connection: { url: ns.url }, prefix: ns.prefix });
    try {
      await client.query(`INSERT INTO outbox (id, kind, name, body) VALUES ($1, 'event', 'message.sent', $2)`, [
        id,
        JSON.stringify({ id, name: 'message.sent', producer: SERVICES.chat, payload: {} }),
      ]);
      const published = await waitFor(
        async () => {
          const { rows } = await client.query<{ published_at: Date | null }>('SELECT published_at FROM outbox WHERE id = $1', [id]);
          return rows[0]?.published_at ?? undefined;
        },
        { timeoutMs: 15_000, intervalMs: 50, what: 'the outbox row published' },
      );
      expect(published).toBeInstanceOf(Date);
      expect((await queue.getJob(id))?.name).toBe('message.sent');
    } finally {
      await queue.close();
      await client.end();
    }
  });
});
