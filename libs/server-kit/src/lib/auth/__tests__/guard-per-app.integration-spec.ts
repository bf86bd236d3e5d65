import { Controller, Get, Module } from '@nestjs/common';
import { EdgeMessages, ErrorCode, SERVICES, type AuthPrincipal } from '@mate/contracts';
import { startOwnRedisServer, type OwnRedisServer } from '@mate/testing';
import { DatabaseEnv } from '../../config/config';
import { ServiceModule } from '../../service.module';
import { CurrentUser } from '../decorators';
import { startServiceTestBed, type ServiceTestBed } from '../../../testing/service-test-bed';
import { waitFor } from '../../../testing/service-app';

/**
 * Starting a service (a database, migrations, Nest, a port) and closing it take seconds on a busy
 * machine (CI runs every project's tests at once on 2 CPUs): far over Jest's 5 s default.
 */
jest.setTimeout(30_000);

@Controller('api/whoami')
class WhoAmIController {
  @Get()
  whoami(@CurrentUser() user: AuthPrincipal) {
    return { userId: user.userId, sessionId: user.sessionId };
  }
}

@Module({ controllers: [WhoAmIController] })
class WhoAmIModule {}

const service = (env?: Partial<Record<string, string>>) =>
  ServiceModule.forRoot({ service: SERVICES.notification, envClass: DatabaseEnv, env, entities: [], migrations: [], features: [WhoAmIModule] });

/**
 * passport keeps one strategy per name per process: a guard that looked its strategy up there
 * checked sessions in the Redis (and with the secret) of whichever service started last. Each
 * service must check tokens with its own settings, whatever else runs in the process.
 */
describe('the session guard of each service in one process', () => {
  let first: ServiceTestBed;
  let second: ServiceTestBed;

  beforeAll(async () => {
    first = await startServiceTestBed(service, { label: 'guard_first' });
    second = await startServiceTestBed(service, { label: 'guard_second', env: { JWT_SECRET: 'another-service-secret-0123456789' } });
  });

  afterAll(async () => {
    await Promise.allSettled([first?.close(), second?.close()]);
  });

  it('accepts a session of its own prefix and secret after another service started', async () => {
    const own = await first.signIn();
    const res = await first.call('GET', '/api/whoami', { token: own.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ userId: own.userId, sessionId: own.sessionId });
  });

  it("refuses a session that lives only in another service's Redis prefix", async () => {
    const foreign = await second.signIn();
    const res = await second.call('GET', '/api/whoami', { token: foreign.token });
    expect(res.status).toBe(200);
    expect((await first.call('GET', '/api/whoami', { token: foreign.token })).status).toBe(401);
  });

  it('answers concurrent requests each with its own member', async () => {
    const members = await Promise.all(Array.from({ length: 10 }, () => first.signIn()));
    const answers = await Promise.all(members.map((m) => first.call('GET', '/api/whoami', { token: m.token })));
    expect(answers.map((a) => a.body)).toEqual(members.map((m) => ({ userId: m.userId, sessionId: m.sessionId })));
  });
});

/** The guard checks every request's session in Redis: without Redis it cannot tell, and says so. */

/**
 * Starting, killing and restarting a redis-server, and closing a service whose connections are
 * reconnecting, take longer than Jest's 5 s default on a busy machine (a CI run took over 5 s to close).
 */
const OUTAGE_TIMEOUT_MS = 30_000;

describe('the session guard while Redis does not answer', () => {
  let redis: OwnRedisServer;
  let bed: ServiceTestBed;

  beforeAll(async () => {
    redis = await startOwnRedisServer();
    bed = await startServiceTestBed(service, { label: 'guard_outage', env: { REDIS_URL: redis.url } });
  }, OUTAGE_TIMEOUT_MS);

  afterAll(async () => {
    // Running again (a failed test may have left it stopped), so the connections close cleanly.
    await redis?.start();
    // A service whose Redis was killed and restarted must still close: a BullMQ worker's close
    // sometimes waits forever there, and the kit's QueueWorker cuts it off (WORKER_CLOSE_TIMEOUT_MS).
    await bed?.close();
    await redis?.stop();
  }, OUTAGE_TIMEOUT_MS);

  it('answers a retryable 503 with an { error } body, never a 500, and the same token works once Redis is back', async () => {
    const member = await bed.signIn();
    expect((await bed.call('GET', '/api/whoami', { token: member.token })).status).toBe(200);

    await redis.kill();
    const down = await bed.call('GET', '/api/whoami', { token: member.token });
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ error: EdgeMessages.unavailable, code: ErrorCode.ServiceUnavailable });

    await redis.start();
    await waitFor(async () => (await bed.call('GET', '/api/whoami', { token: member.token })).status === 200, {
      what: 'the session check once Redis is back',
    });
  }, OUTAGE_TIMEOUT_MS);
});
