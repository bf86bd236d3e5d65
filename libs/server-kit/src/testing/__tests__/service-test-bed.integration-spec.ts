import { Controller, Get, Injectable, Module } from '@nestjs/common';
import { Client } from 'pg';
import Redis from 'ioredis';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { SERVICES, type AuthPrincipal } from '@mate/contracts';
import { testInfra } from '@mate/testing';
import { DatabaseEnv } from '../../lib/config/config';
import { CurrentUser } from '../../lib/auth/decorators';
import { EventConsumer } from '../../lib/events/event-consumer';
import type { EventHandlerSet } from '../../lib/events/events.module';
import { KIT_MIGRATIONS } from '../../lib/events/kit-migrations';
import { ServiceModule } from '../../lib/service.module';
import { startServiceTestBed, type ServiceTestBed } from '../service-test-bed';
import { coveringCatalogue } from '../../lib/events/__tests__/event-harness';

/**
 * Starting a service (a database, migrations, Nest, a port) and closing it take seconds on a busy
 * machine (CI runs every project's tests at once on 2 CPUs): far over Jest's 5 s default.
 */
jest.setTimeout(30_000);

class CreateGreetings1800000000000 implements MigrationInterface {
  name = 'CreateGreetings1800000000000';
  async up(q: QueryRunner) {
    await q.query('CREATE TABLE greeting (user_id uuid PRIMARY KEY)');
  }
  async down(q: QueryRunner) {
    await q.query('DROP TABLE greeting');
  }
}

@Controller('api/greetings')
class GreetingsController {
  @Get('me')
  me(@CurrentUser() user: AuthPrincipal) {
    return { userId: user.userId };
  }
}

@Module({ controllers: [GreetingsController] })
class GreetingsModule {}

@Injectable()
class GreetingHandlers implements EventHandlerSet {
  handlers() {
    // The other events the catalogue routes to the borrowed name get no-ops (the catalogue grows).
    return coveringCatalogue(SERVICES.notification, { 'user.email_changed': async () => undefined });
  }
}

/** A service as a generated one is made: only its own migration, feature and handlers. */
const greetingService = (env?: Partial<Record<string, string>>) =>
  ServiceModule.forRoot({
    service: SERVICES.notification,
    envClass: DatabaseEnv,
    env,
    entities: [],
    migrations: [CreateGreetings1800000000000],
    features: [GreetingsModule],
    handlers: GreetingHandlers,
  });

describe('ServiceModule on the service test bed (real PostgreSQL and Redis)', () => {
  let bed: ServiceTestBed;

  beforeAll(async () => {
    bed = await startServiceTestBed(greetingService, { label: 'test_bed' });
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('migrates the kit’s tables first, then the service’s own', async () => {
    const applied: { name: string }[] = await bed.dataSource.query('SELECT name FROM migrations ORDER BY id');
    expect(applied.map((m) => m.name)).toEqual([...KIT_MIGRATIONS.map((m) => m.name), 'CreateGreetings1800000000000']);
    const tables: { table_name: string }[] = await bed.dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['outbox', 'processed_event', 'greeting']));
  });

  it('brings health, the session guard and the event consumer with the kit', async () => {
    expect((await bed.call('GET', '/health/ready')).status).toBe(200);
    expect((await bed.call('GET', '/api/greetings/me')).status).toBe(401);
    const member = await bed.signIn();
    const res = await bed.call<{ userId: string }>('GET', '/api/greetings/me', { token: member.token });
    expect(res).toMatchObject({ status: 200, body: { userId: member.userId } });
    expect(bed.app.get(EventConsumer)).toBeInstanceOf(EventConsumer);
  });

  it('leaves no database and no Redis key behind once closed', async () => {
    const other = await startServiceTestBed(greetingService, { label: 'test_bed_close' });
    await other.signIn();
    const { name } = other.db;
    const prefix = other.env.KEY_PREFIX;
    await other.close();

    const infra = await testInfra();
    const pg = new Client({ connectionString: infra.postgresAdminUrl });
    const redis = new Redis(infra.redisUrl);
    try {
      await pg.connect();
      expect((await pg.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount).toBe(0);
      expect(await redis.keys(`${prefix}:*`)).toEqual([]);
    } finally {
      await pg.end();
      redis.disconnect();
    }
  });
});
