import { QueueName, SERVICES } from '@mate/contracts';
import { queueWorkerSettings } from '../queue-worker';

describe('queueWorkerSettings', () => {
  const env = { REDIS_URL: 'redis://127.0.0.1:6390', KEY_PREFIX: 'suite-1', WORKERS: 'on' as const };

  it("takes the env's Redis and key prefix, and the worker's own service, queue and concurrency", () => {
    expect(queueWorkerSettings(env, { service: SERVICES.safety, queue: QueueName.SafetyEvidence, concurrency: 2 })).toEqual({
      service: SERVICES.safety,
      queue: QueueName.SafetyEvidence,
      concurrency: 2,
      redisUrl: 'redis://127.0.0.1:6390',
      keyPrefix: 'suite-1',
      enabled: true,
    });
  });

  it('is disabled when WORKERS=off (API-only replicas, one-off commands)', () => {
    const settings = queueWorkerSettings({ ...env, WORKERS: 'off' }, { service: SERVICES.auth, queue: QueueName.AccountAdmin, concurrency: 1 });
    expect(settings.enabled).toBe(false);
  });
});
