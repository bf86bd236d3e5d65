import { Module, type DynamicModule } from '@nestjs/common';
import { Worker } from 'bullmq';
import Redis from 'ioredis';
import { SERVICES } from '@mate/contracts';
import { startOwnRedisServer, type OwnRedisServer } from '@mate/testing';
import { CoreModule } from '../../core.module';
import { BaseServiceEnv } from '../../config/config';
import { createQueueConnection } from '../../redis/redis';
import { HealthRegistry } from '../health';
import { call, startService, waitFor, type RunningService } from '../../../testing/service-app';

/**
 * Starting a redis-server and a service, killing and restarting the server, and closing a service
 * whose connections are reconnecting take seconds on a busy machine (CI runs every project's tests
 * at once on 2 CPUs): far over Jest's 5 s default.
 */
jest.setTimeout(60_000);

@Module({})
class BareService {
  static forRoot(env: Record<string, string>): DynamicModule {
    return { module: BareService, imports: [CoreModule.forRoot({ service: SERVICES.notification, envClass: BaseServiceEnv, env })] };
  }
}

type Ready = { status: string; checks: Record<string, string> };

describe('readiness includes the queues', () => {
  /** This suite's own redis-server, so stopping it never touches the shared one. */
  let redis: OwnRedisServer;
  let service: RunningService;
  let worker: Worker | null = null;
  let workerConnection: Redis | null = null;

  beforeAll(async () => {
    redis = await startOwnRedisServer();
    service = await startService(BareService.forRoot, { REDIS_URL: redis.url, KEY_PREFIX: 'readiness', LOG_LEVEL: 'silent' }, {}, { migrate: false });
  });

  afterAll(async () => {
    // Running again (a failed test may have left it stopped), so the connections close cleanly.
    await redis?.start();
    await worker?.close();
    workerConnection?.disconnect();
    await service?.close();
    await redis?.stop();
  });

  it('goes unready while the queue connection is down, and ready again when Redis returns; live stays cheap', async () => {
    // A worker this replica runs: its queue is part of readiness too.
    workerConnection = createQueueConnection(redis.url);
    worker = new Worker('jobs.readiness', async () => undefined, { connection: workerConnection, prefix: 'readiness' });
    // Connection errors while this suite's Redis is stopped are expected; readiness reports them.
    worker.on('error', () => undefined);
    await worker.waitUntilReady();
    service.app.get(HealthRegistry).registerWorker('jobs.readiness', () => worker);

    const up = await call<Ready>(service.url, 'GET', '/health/ready');
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ status: 'ok', checks: { redis: 'up', queues: 'up', 'queue:jobs.readiness': 'up' } });

    await redis.kill();
    const down = await waitFor(
      async () => {
        const res = await call<Ready>(service.url, 'GET', '/health/ready');
        return res.status === 503 && res.body.checks['queues'] !== 'up' && res.body.checks['queue:jobs.readiness'] !== 'up' && res;
      },
      { what: 'readiness to report the queues down' },
    );
    expect(down.body.status).toBe('unavailable');
    expect(down.body.checks['queues']).toMatch(/^down: /);
    const live = await call(service.url, 'GET', '/health/live');
    expect(live).toMatchObject({ status: 200, body: { status: 'ok' } });

    await redis.start();
    await waitFor(async () => (await call(service.url, 'GET', '/health/ready')).status === 200, { what: 'readiness after Redis returns' });
  });

  it('reports a worker that stopped', async () => {
    await worker?.close();
    const res = await call<Ready>(service.url, 'GET', '/health/ready');
    expect(res.status).toBe(503);
    expect(res.body.checks).toMatchObject({ queues: 'up', 'queue:jobs.readiness': 'down: worker not running' });
    service.app.get(HealthRegistry).unregister('queue:jobs.readiness');
    expect((await call(service.url, 'GET', '/health/ready')).status).toBe(200);
  });
});
