import { randomUUID } from 'node:crypto';
import { SERVICES, type EventEnvelope, type EventName, type EventPayloads } from '@mate/contracts';
import { createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import { startKitService, type KitService } from '../../events/__tests__/event-harness';
import { MemberSuspensions } from '../member-suspensions';
import { withKitProjections } from '../kit-projections';

jest.setTimeout(60_000);

/**
 * The kit's suspension projection (docs/adr/0030-pair-and-suspension-projection.md): a service that
 * keeps it gets `kit_member_suspension` from the kit's migrations, the two events' handlers from
 * the kit (its own handler of the same event runs after, in the same transaction) and the reads.
 */
describe('member suspension projection (real PostgreSQL)', () => {
  let db: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let service: KitService;
  let suspensions: MemberSuspensions;
  /** What the service's own handler of user.suspended saw of the kit's row (its hook). */
  const seenByHook: boolean[] = [];

  beforeAll(async () => {
    [db, ns] = await Promise.all([createTestDatabase('kit_suspension'), createTestRedisNamespace('kitsusp')]);
    service = await startKitService({
      service: SERVICES.profile,
      db,
      redisUrl: ns.url,
      prefix: ns.prefix,
      env: { WORKERS: 'off' },
      projections: ['suspension'],
      handlers: {
        'user.suspended': async (payload, manager) => {
          seenByHook.push(await suspensions.anySuspended([payload.userId], manager));
        },
      },
    });
    suspensions = service.moduleRef.get(MemberSuspensions);
  });

  afterAll(async () => {
    await service?.close();
    await ns?.cleanup();
    await db?.drop();
  });

  function userEvent<N extends Extract<EventName, 'user.suspended' | 'user.unsuspended' | 'user.deleted'>>(
    name: N,
    payload: EventPayloads[N],
    version?: number,
  ) {
    if (!service.consumer) throw new Error('this service has no consumer');
    const envelope: EventEnvelope<N> = {
      id: randomUUID(),
      name,
      version: 1,
      producer: SERVICES.auth,
      occurredAt: new Date().toISOString(),
      payload,
      ...(version === undefined ? {} : { aggregateType: 'user', aggregateId: payload.userId, aggregateVersion: version }),
    };
    return service.consumer.apply(envelope as EventEnvelope);
  }
  const suspend = (userId: string, version: number) =>
    userEvent('user.suspended', { userId, suspended: true, reason: 'Spam', suspendedAt: '2026-11-30T10:00:00.000Z' }, version);
  const unsuspend = (userId: string, version: number) =>
    userEvent('user.unsuspended', { userId, suspended: false, unsuspendedAt: new Date().toISOString() }, version);

  it('keeps a row while the member is suspended, read by id in any case, and none once unsuspended', async () => {
    const [ann, ben] = [randomUUID(), randomUUID()];
    expect(await suspend(ann.toUpperCase(), 1)).toBe('handled');
    expect(await service.dataSource.query('SELECT user_id, suspended_at FROM kit_member_suspension WHERE user_id = $1', [ann])).toEqual([
      { user_id: ann, suspended_at: new Date('2026-11-30T10:00:00.000Z') },
    ]);
    expect(await suspensions.isSuspended(ann)).toBe(true);
    expect(await suspensions.isSuspended(ann.toUpperCase())).toBe(true);
    expect(await suspensions.isSuspended(ben)).toBe(false);
    expect(await suspensions.anySuspended([ben, ann])).toBe(true);
    expect(await suspensions.anySuspended([ben])).toBe(false);
    expect(await suspensions.anySuspended([])).toBe(false);

    expect(await unsuspend(ann, 2)).toBe('handled');
    expect(await suspensions.isSuspended(ann)).toBe(false);
  });

  it("runs the service's own handler of the event after the kit's write, in its transaction", async () => {
    seenByHook.length = 0;
    expect(await suspend(randomUUID(), 1)).toBe('handled');
    expect(seenByHook).toEqual([true]);
  });

  it('skips a suspension older than the unsuspension already applied', async () => {
    const ann = randomUUID();
    expect(await unsuspend(ann, 5)).toBe('handled');
    expect(await suspend(ann, 4)).toBe('stale');
    expect(await suspensions.isSuspended(ann)).toBe(false);
  });

  it("forgets the member's row when the member is erased", async () => {
    const ann = randomUUID();
    await suspend(ann, 1);
    expect(await userEvent('user.deleted', { userId: ann, deletedAt: new Date().toISOString() })).toBe('handled');
    expect(await service.dataSource.query('SELECT 1 FROM kit_member_suspension WHERE user_id = $1', [ann])).toEqual([]);
  });

  it('leaves the handlers as they are for a service without the projection', () => {
    const own = { 'user.suspended': async () => undefined };
    expect(withKitProjections(own, {})).toEqual(own);
  });
});
