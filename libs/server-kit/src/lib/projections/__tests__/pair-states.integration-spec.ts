import { randomUUID } from 'node:crypto';
import { orderedPairOf, pairIdOf, SERVICES, type EventEnvelope, type EventName, type EventPayloads } from '@mate/contracts';
import { createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import { startKitService, type KitService } from '../../events/__tests__/event-harness';
import { PairStates } from '../pair-states';

jest.setTimeout(60_000);

/**
 * The kit's pair projection (docs/adr/0030-pair-and-suspension-projection.md): a service that keeps
 * it gets `kit_pair` from the kit's migrations, the pair events' handlers from the kit (its own
 * handler of the same event runs after, in the same transaction) and the reads.
 */
describe('pair state projection (real PostgreSQL)', () => {
  let db: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let service: KitService;
  let pairs: PairStates;
  /** What the service's own handler of user.blocked saw of the kit's row (its hook). */
  const seenByHook: boolean[] = [];

  beforeAll(async () => {
    [db, ns] = await Promise.all([createTestDatabase('kit_pair_state'), createTestRedisNamespace('kitpair')]);
    service = await startKitService({
      service: SERVICES.notification,
      db,
      redisUrl: ns.url,
      prefix: ns.prefix,
      env: { WORKERS: 'off' },
      projections: ['pair'],
      handlers: {
        'user.blocked': async (payload, manager) => {
          seenByHook.push(await pairs.isBlocked(payload.userIds[0], payload.userIds[1], manager));
        },
      },
    });
    pairs = service.moduleRef.get(PairStates);
  });

  afterAll(async () => {
    await service?.close();
    await ns?.cleanup();
    await db?.drop();
  });

  function apply<N extends EventName>(name: N, payload: EventPayloads[N], aggregate?: { id: string; version: number }) {
    if (!service.consumer) throw new Error('this service has no consumer');
    const envelope: EventEnvelope<N> = {
      id: randomUUID(),
      name,
      version: 1,
      producer: SERVICES.safety,
      occurredAt: new Date().toISOString(),
      payload,
      ...(aggregate ? { aggregateType: 'pair', aggregateId: aggregate.id, aggregateVersion: aggregate.version } : {}),
    };
    return service.consumer.apply(envelope as EventEnvelope);
  }
  const pairOf = (x: string, y: string) => {
    const userIds = orderedPairOf(x, y) as [string, string];
    return { pairId: pairIdOf(x, y), userIds };
  };
  const block = (blocker: string, blocked: string, version: number, blockedBy = [blocker], at = new Date().toISOString()) =>
    apply(
      'user.blocked',
      { ...pairOf(blocker, blocked), blockedBy, blockerId: blocker, blockedId: blocked, endedMatchId: null, blockedAt: at },
      { id: pairIdOf(blocker, blocked), version },
    );
  const unblock = (blocker: string, blocked: string, version: number, blockedBy: string[] = []) =>
    apply(
      'user.unblocked',
      { ...pairOf(blocker, blocked), blockedBy, blockerId: blocker, blockedId: blocked, unblockedAt: new Date().toISOString() },
      { id: pairIdOf(blocker, blocked), version },
    );
  const rowOf = async (x: string, y: string) => {
    const [a, b] = orderedPairOf(x, y);
    const [row] = await service.dataSource.query(
      'SELECT blocked_by, ended_before, version FROM kit_pair WHERE member_a = $1 AND member_b = $2',
      [a, b],
    );
    return row as { blocked_by: string[]; ended_before: Date | null; version: number | null } | undefined;
  };

  it("keeps the pair's whole block state, read in either order and any case, and its newest version", async () => {
    const [ann, ben] = [randomUUID(), randomUUID()];
    expect(await pairs.isBlocked(ann, ben)).toBe(false);
    expect(await pairs.pairVersion(ann, ben)).toBe(0);

    expect(await block(ann, ben, 1, [ann], '2026-11-30T09:00:00.000Z')).toBe('handled');
    expect(await pairs.isBlocked(ben, ann)).toBe(true);
    expect(await pairs.isBlocked(ann.toUpperCase(), ben)).toBe(true);
    expect(await pairs.pairVersion(ann, ben)).toBe(1);
    expect(await block(ben, ann, 2, [ann, ben], '2026-11-30T09:05:00.000Z')).toBe('handled');
    expect(await rowOf(ann, ben)).toEqual({
      blocked_by: [ann, ben].sort(),
      ended_before: new Date('2026-11-30T09:05:00.000Z'),
      version: 2,
    });

    expect(await unblock(ann, ben, 3, [ben])).toBe('handled');
    expect(await pairs.isBlocked(ann, ben)).toBe(true);
    expect(await unblock(ben, ann, 4)).toBe('handled');
    expect(await pairs.isBlocked(ann, ben)).toBe(false);
    expect(await pairs.pairVersion(ann, ben)).toBe(4);
    // A stale block changes nothing.
    expect(await block(ann, ben, 3)).toBe('stale');
    expect(await pairs.isBlocked(ann, ben)).toBe(false);
  });

  const endedMatchesOf = (userId: string) =>
    service.dataSource.query('SELECT match_id, member_a, member_b FROM kit_ended_match WHERE $1 IN (member_a, member_b)', [userId]);

  it('applies match.ended: the pair stays unblocked, its version and end time move on, the match is ended', async () => {
    const [ann, ben] = [randomUUID(), randomUUID()];
    const at = '2026-11-30T10:00:00.000Z';
    const matchId = randomUUID();
    expect(
      await apply(
        'match.ended',
        { ...pairOf(ann, ben), matchId, endedBy: ann, reason: 'unmatch', endedAt: at, blockedBy: [] },
        { id: pairIdOf(ann, ben), version: 5 },
      ),
    ).toBe('handled');
    expect(await rowOf(ann, ben)).toEqual({ blocked_by: [], ended_before: new Date(at), version: 5 });
    const [a, b] = orderedPairOf(ann, ben);
    expect(await endedMatchesOf(ann)).toEqual([{ match_id: matchId, member_a: a, member_b: b }]);
  });

  it("records the match a block ended (user.blocked's endedMatchId)", async () => {
    const [ann, ben] = [randomUUID(), randomUUID()];
    const matchId = randomUUID();
    const payload = { ...pairOf(ann, ben), blockedBy: [ann], blockerId: ann, blockedId: ben, endedMatchId: matchId, blockedAt: new Date().toISOString() };
    expect(await apply('user.blocked', payload, { id: pairIdOf(ann, ben), version: 1 })).toBe('handled');
    expect((await endedMatchesOf(ben)).map((r: { match_id: string }) => r.match_id)).toEqual([matchId]);
  });

  it("runs the service's own handler of the event after the kit's write, in its transaction", async () => {
    seenByHook.length = 0;
    expect(await block(randomUUID(), randomUUID(), 1)).toBe('handled');
    expect(seenByHook).toEqual([true]);
  });

  it('forgets every pair naming the member when the member is erased', async () => {
    const [ann, ben, cleo] = [randomUUID(), randomUUID(), randomUUID()];
    await block(ann, ben, 1);
    await block(cleo, ann, 1);
    await block(ben, cleo, 1);
    await service.dataSource.query('INSERT INTO kit_ended_match (match_id, member_a, member_b) VALUES ($1, $2, $3), ($4, $5, $6)', [
      randomUUID(),
      ...orderedPairOf(ann, ben),
      randomUUID(),
      ...orderedPairOf(ben, cleo),
    ]);
    expect(
      await apply('user.deleted', { userId: ann, deletedAt: new Date().toISOString() }),
    ).toBe('handled');
    expect(await service.dataSource.query('SELECT 1 FROM kit_pair WHERE $1 IN (member_a, member_b)', [ann])).toEqual([]);
    expect(await endedMatchesOf(ann)).toEqual([]);
    expect(await pairs.isBlocked(ben, cleo)).toBe(true);
    expect(await endedMatchesOf(cleo)).toHaveLength(1);
  });
});
