import { randomUUID } from 'node:crypto';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { register } from 'prom-client';
import { QueueName, SERVICES, type EmailJobData, type UserRegisteredPayload } from '@mate/contracts';
import { createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import { waitFor } from '../../../testing/service-app';
import { currentRequestId, runWithRequestId } from '../../logging/logger';
import { MetricName } from '../../metrics/metrics';
import { JobWorker, type JobData, type QueueWorkerSettings } from '../../workers/queue-worker';
import { capturingLogger, startKitService, type KitService, type LogLine } from './event-harness';

jest.setTimeout(30_000);

/** An email worker as a service would write one, that remembers what it saw instead of sending. */
class RecordingEmailWorker extends JobWorker<QueueName.Email, string> {
  readonly seen: { to: string; requestId: string | undefined }[] = [];

  constructor(settings: QueueWorkerSettings, logger: Logger) {
    super(settings, logger);
  }

  protected async handle(data: EmailJobData, job: Job<JobData<QueueName.Email>, string>): Promise<string> {
    this.seen.push({ to: data.to, requestId: currentRequestId() });
    this.logger.info({ jobId: job.id }, 'email handled');
    if (data.to.startsWith('fail')) throw new Error('smtp refused');
    return 'sent';
  }
}

async function metricValue(name: string, labels: Record<string, string>, suffix = ''): Promise<number> {
  const metric = register.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  const match = values.find(
    (v) =>
      ((v as { metricName?: string }).metricName ?? name) === `${name}${suffix}` &&
      Object.entries(labels).every(([k, value]) => String((v.labels as Record<string, unknown>)[k]) === value),
  );
  return match?.value ?? 0;
}

describe('the request id that caused an event or a job', () => {
  let producerDb: TestDatabase;
  let consumerDb: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let producer: KitService;
  let consumer: KitService;
  let emailWorker: RecordingEmailWorker;
  const workerLogs: LogLine[] = [];
  const handledUnder = new Map<string, string | undefined>();

  beforeAll(async () => {
    [producerDb, consumerDb, ns] = await Promise.all([
      createTestDatabase('request_id_producer'),
      createTestDatabase('request_id_consumer'),
      createTestRedisNamespace('request_id'),
    ]);
    producer = await startKitService({ service: SERVICES.auth, db: producerDb, redisUrl: ns.url, prefix: ns.prefix });
    consumer = await startKitService({
      service: SERVICES.profile,
      db: consumerDb,
      redisUrl: ns.url,
      prefix: ns.prefix,
      handlers: {
        'user.registered': async (payload: UserRegisteredPayload) => {
          handledUnder.set(payload.userId, currentRequestId());
        },
        'user.verified': async () => undefined,
      },
    });
    emailWorker = new RecordingEmailWorker(
      {
        service: SERVICES.notification,
        queue: QueueName.Email,
        redisUrl: ns.url,
        keyPrefix: ns.prefix,
        concurrency: 1,
        enabled: true,
      },
      capturingLogger(SERVICES.notification, workerLogs),
    );
    emailWorker.onModuleInit();
  });

  afterAll(async () => {
    await emailWorker?.onApplicationShutdown();
    await consumer?.close();
    await producer?.close();
    await ns?.cleanup();
    await producerDb?.drop();
    await consumerDb?.drop();
  });

  it('travels in the event envelope, and the consumer handles and logs the event under it', async () => {
    const userId = randomUUID();
    const requestId = `req-${randomUUID()}`;
    const envelope = await runWithRequestId(requestId, () =>
      producer.dataSource.transaction((m) =>
        producer.outbox.publish(m, 'user.registered', {
          userId,
          email: 'rid@mate.test',
          name: null,
          age: null,
          registeredAt: new Date().toISOString(),
        }),
      ),
    );
    expect(envelope.requestId).toBe(requestId);
    const lagBefore = await metricValue(MetricName.eventLag, { service: SERVICES.profile, event: 'user.registered' }, '_count');
    await producer.outbox.relayOnce();

    await waitFor(async () => handledUnder.has(userId), { what: 'the event to be handled' });
    expect(handledUnder.get(userId)).toBe(requestId);
    const line = await waitFor(async () => consumer.logs.find((l) => l.msg === 'event consumed' && l.eventId === envelope.id), {
      what: 'the consumer log line',
    });
    expect(line).toMatchObject({ requestId, outcome: 'handled', name: 'user.registered', aggregateVersion: 1 });
    // The lag from outbox to handled is observed on /metrics.
    expect(
      await metricValue(MetricName.eventLag, { service: SERVICES.profile, event: 'user.registered' }, '_count'),
    ).toBe(lagBefore + 1);
  });

  it('travels in job data, and the job worker runs and logs under it (failures too, counted on /metrics)', async () => {
    const requestId = `req-${randomUUID()}`;
    const [sentId, failedId] = await runWithRequestId(requestId, () =>
      producer.dataSource.transaction(async (m) => [
        await producer.outbox.enqueueJob(m, QueueName.Email, { template: 'verify-email', to: 'ok@mate.test', name: null, link: 'http://x' }),
        await producer.outbox.enqueueJob(m, QueueName.Email, { template: 'verify-email', to: 'fail@mate.test', name: null, link: 'http://x' }),
      ]),
    );
    const [{ body }] = await producer.dataSource.query('SELECT body FROM outbox WHERE id = $1', [sentId]);
    expect(body).toMatchObject({ id: sentId, queue: QueueName.Email, requestId, data: { to: 'ok@mate.test' } });
    const failuresBefore = await metricValue(MetricName.jobsFailed, { queue: QueueName.Email });
    await producer.outbox.relayOnce();

    await waitFor(async () => emailWorker.seen.length >= 2, { what: 'both jobs to be worked' });
    expect(emailWorker.seen).toEqual(
      expect.arrayContaining([
        { to: 'ok@mate.test', requestId },
        { to: 'fail@mate.test', requestId },
      ]),
    );
    const failed = await waitFor(async () => workerLogs.find((l) => l.msg === 'job failed' && l.jobId === failedId), {
      what: 'the failure log line',
    });
    expect(failed).toMatchObject({ requestId, queue: QueueName.Email, final: false });
    // The failed job is retried (the relay's backoff starts at 1 s), and a slow machine may see a
    // retry fail before the lines below are read: every attempt runs, logs and counts the same way.
    const failuresNow = await metricValue(MetricName.jobsFailed, { queue: QueueName.Email });
    const failedAttempts = workerLogs.filter((l) => l.msg === 'job failed' && l.jobId === failedId);
    expect(failuresNow - failuresBefore).toBe(failedAttempts.length);
    expect(failedAttempts.every((l) => l.requestId === requestId && l.final === false)).toBe(true);
    const handled = workerLogs.filter((l) => l.msg === 'email handled');
    expect(handled.length).toBeGreaterThanOrEqual(2);
    expect(handled.map((l) => l.requestId)).toEqual(handled.map(() => requestId));
  });
});
