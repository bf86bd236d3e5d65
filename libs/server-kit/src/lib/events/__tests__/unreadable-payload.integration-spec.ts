import { randomUUID } from 'node:crypto';
import { SERVICES, type EventEnvelope, type UserRegisteredPayload } from '@mate/contracts';
import { createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import { startKitService, type KitService } from './event-harness';

jest.setTimeout(60_000);

/**
 * The consumer reads each payload once against its catalogue class: a handler gets it normalised
 * (ids lower case), and a payload that does not read is recorded and logged in one place, never
 * passed to a handler nor retried.
 */
describe('event consumer: payloads read once against their catalogue class', () => {
  let db: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let service: KitService;
  const received: UserRegisteredPayload[] = [];

  beforeAll(async () => {
    [db, ns] = await Promise.all([
      createTestDatabase('unreadable_payload'),
      createTestRedisNamespace('unreadable'),
    ]);
    service = await startKitService({
      service: SERVICES.profile,
      db,
      redisUrl: ns.url,
      prefix: ns.prefix,
      env: { WORKERS: 'off' },
      handlers: {
        'user.registered': async (payload) => {
          received.push(payload);
        },
      },
    });
  });

  afterAll(async () => {
    await service?.close();
    await ns?.cleanup();
    await db?.drop();
  });

  const apply = (envelope: EventEnvelope) => {
    if (!service.consumer) throw new Error('this service has no consumer');
    return service.consumer.apply(envelope);
  };
  const registered = (payload: Record<string, unknown>): EventEnvelope<'user.registered'> => ({
    id: randomUUID(),
    name: 'user.registered',
    version: 1,
    producer: SERVICES.auth,
    occurredAt: new Date().toISOString(),
    payload: payload as never,
  });

  it('hands the handler the normalised payload', async () => {
    const userId = randomUUID();
    const email = 'ann@mate.test';
    expect(
      await apply(
        registered({
          userId: userId.toUpperCase(),
          email,
          name: 'Ann',
          age: 30,
          registeredAt: new Date().toISOString(),
        }),
      ),
    ).toBe('handled');
    expect(received.at(-1)).toMatchObject({ userId, email, name: 'Ann', age: 30 });
  });

  it('records and logs an unreadable payload once, by name, version and id, without its contents', async () => {
    const handledBefore = received.length;
    const envelope = registered({
      userId: 'not-a-member',
      email: 'secret@mate.test',
      name: 'Ann',
      age: 'thirty',
      registeredAt: 'yesterday',
    });
    expect(await apply(envelope)).toBe('unreadable');
    expect(await apply(envelope)).toBe('duplicate');
    expect(received).toHaveLength(handledBefore);
    expect(
      await service.dataSource.query('SELECT name, outcome FROM processed_event WHERE event_id = $1', [
        envelope.id,
      ]),
    ).toEqual([{ name: 'user.registered', outcome: 'unreadable' }]);
    const lines = service.logs.filter((l) => l.msg === 'event with an unreadable payload skipped');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ eventId: envelope.id, name: 'user.registered', version: 1 });
    expect((lines[0].fields as string[]).sort()).toEqual(['age', 'registeredAt', 'userId']);
    expect(JSON.stringify(lines[0])).not.toContain('secret@mate.test');
    expect(JSON.stringify(lines[0])).not.toContain('not-a-member');
  });
});
