import { Controller, Get, Module } from '@nestjs/common';
import { SERVICES, type AuthPrincipal } from '@mate/contracts';
import { DatabaseEnv } from '../../config/config';
import { ServiceModule } from '../../service.module';
import { CurrentUser } from '../decorators';
import { startServiceTestBed, type ServiceTestBed } from '../../../testing/service-test-bed';

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
