import { SERVICES, type EventEnvelope, type EventName } from '@mate/contracts';
import type { EntityManager } from 'typeorm';
import type { EventHandler } from '../../events/event-consumer';
import { EventsModule } from '../../events/events.module';
import {
  assertProjectionsConsumed,
  projectionMigrations,
  projectionProviders,
  ProjectionWithoutEventsError,
  withKitProjections,
} from '../kit-projections';
import { MemberSuspensions } from '../member-suspensions';
import { PairStates } from '../pair-states';

const A = '00000000-0000-4000-8000-00000000000a';
const manager = {} as EntityManager;

/** Stand-ins for the projections' statements that log what the kit's handlers call. */
function recording(calls: string[]) {
  const suspensions = {
    apply: async () => void calls.push('kit:suspension'),
    forget: async () => void calls.push('kit:forget-suspension'),
  } as unknown as MemberSuspensions;
  const pairs = {
    apply: async () => void calls.push('kit:pair'),
    forget: async () => void calls.push('kit:forget-pairs'),
  } as unknown as PairStates;
  return { suspensions, pairs };
}

function run<N extends EventName>(handler: EventHandler<N> | undefined, name: N, payload: unknown) {
  if (!handler) throw new Error(`no handler for ${name}`);
  return handler(payload as never, manager, { name, payload } as unknown as EventEnvelope<N>);
}

describe('kit projections', () => {
  it("puts the kit's write before the service's own handler of the event, and keeps the others", async () => {
    const calls: string[] = [];
    const handlers = withKitProjections(
      {
        'user.suspended': async () => void calls.push('own:suspended'),
        'user.deleted': async () => void calls.push('own:erasure'),
        'profile.updated': async () => void calls.push('own:profile'),
      },
      recording(calls),
    );
    await run(handlers['user.suspended'], 'user.suspended', { userId: A, suspended: true });
    await run(handlers['user.unsuspended'], 'user.unsuspended', { userId: A, suspended: false });
    await run(handlers['user.blocked'], 'user.blocked', {});
    await run(handlers['user.deleted'], 'user.deleted', { userId: A });
    await run(handlers['profile.updated'], 'profile.updated', {});
    expect(calls).toEqual([
      'kit:suspension',
      'own:suspended',
      'kit:suspension',
      'kit:pair',
      'kit:forget-pairs',
      'kit:forget-suspension',
      'own:erasure',
      'own:profile',
    ]);
  });

  it("lists each projection's migrations and reads once, the kit's table first", () => {
    expect(projectionMigrations([]).length).toBe(0);
    expect(projectionMigrations(['suspension', 'pair']).map((m) => new m().name)).toEqual([
      'MemberSuspensionProjection1796401000000',
      'PairStateProjection1796402000000',
      'EndedMatchProjection1796403000000',
    ]);
    expect(projectionProviders(['pair'])).toEqual([PairStates]);
  });

  it('refuses a projection whose events the catalogue does not route to the service, or with no consumer', () => {
    expect(() => assertProjectionsConsumed(SERVICES.profile, ['suspension', 'pair'])).not.toThrow();
    expect(() => assertProjectionsConsumed(SERVICES.auth, ['suspension'])).toThrow(ProjectionWithoutEventsError);
    expect(() => EventsModule.forRoot({ projections: ['suspension'] })).toThrow(/need the service's event handlers/);
  });
});
