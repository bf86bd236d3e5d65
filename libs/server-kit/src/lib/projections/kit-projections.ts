import type { Type } from '@nestjs/common';
import type { MigrationInterface } from 'typeorm';
import { eventsConsumedBy, type EventName, type ServiceName } from '@mate/contracts';
import type { EventHandler, EventHandlers } from '../events/event-consumer';
import { MemberSuspensionProjection1796401000000, MemberSuspensions } from './member-suspensions';
import { EndedMatchProjection1796403000000, PairStateProjection1796402000000, PairStates } from './pair-states';

/**
 * The projections the kit keeps for a service that turns them on (docs/adr/0030-pair-and-
 * suspension-projection.md): the same facts, from the same events, in the same tables everywhere.
 * - suspension: `kit_member_suspension` from user.suspended / user.unsuspended (MemberSuspensions);
 * - pair: `kit_pair` and `kit_ended_match` from user.blocked / user.unblocked and, where the
 *   catalogue routes it, match.ended (PairStates).
 */
export type KitProjection = 'suspension' | 'pair';

/** The events each projection is written from (the catalogue must route them to the service). */
const PROJECTION_EVENTS: Record<KitProjection, EventName[]> = {
  suspension: ['user.suspended', 'user.unsuspended'],
  pair: ['user.blocked', 'user.unblocked'],
};

/** Each projection's migrations, run after the kit's own and before the service's. */
const PROJECTION_MIGRATIONS: Record<KitProjection, Type<MigrationInterface>[]> = {
  suspension: [MemberSuspensionProjection1796401000000],
  pair: [PairStateProjection1796402000000, EndedMatchProjection1796403000000],
};

/** Each projection's reads and writes, injectable in the service's features. */
const PROJECTION_PROVIDERS: Record<KitProjection, Type<unknown>[]> = {
  suspension: [MemberSuspensions],
  pair: [PairStates],
};

export function projectionMigrations(projections: readonly KitProjection[]): Type<MigrationInterface>[] {
  return projections.flatMap((p) => PROJECTION_MIGRATIONS[p]);
}

export function projectionProviders(projections: readonly KitProjection[]): Type<unknown>[] {
  return projections.flatMap((p) => PROJECTION_PROVIDERS[p]);
}

/** Thrown at start-up when a service turns on a projection whose events the catalogue does not route to it. */
export class ProjectionWithoutEventsError extends Error {}

export function assertProjectionsConsumed(service: ServiceName, projections: readonly KitProjection[]) {
  const consumed = new Set(eventsConsumedBy(service));
  for (const projection of projections) {
    const missing = PROJECTION_EVENTS[projection].filter((name) => !consumed.has(name));
    if (missing.length) {
      throw new ProjectionWithoutEventsError(`${service} keeps the ${projection} projection but does not consume ${missing.join(', ')}`);
    }
  }
}

/** The kit's write first, then the service's own handler of the event (its hook), in one transaction. */
function andThen<N extends EventName>(kit: EventHandler<N>, own: EventHandler<N> | undefined): EventHandler<N> {
  if (!own) return kit;
  return async (payload, manager, envelope) => {
    await kit(payload, manager, envelope);
    await own(payload, manager, envelope);
  };
}

/**
 * The service's handlers with the kit's projections in front: for a projection's event the kit
 * writes its table, then the service's own handler of that event, if it has one, does what is the
 * service's own (call ends the member's calls on user.suspended) in the same transaction; on
 * user.deleted the kit forgets the member's projection rows before the service's erasure runs, and
 * the read replica's memory of their writes after it.
 */
export function withKitProjections(
  own: EventHandlers,
  kit: { suspensions?: MemberSuspensions | null; pairs?: PairStates | null; ownWrites?: { forget(memberId: string): Promise<void> } | null },
): EventHandlers {
  const handlers: EventHandlers = { ...own };
  const { suspensions, pairs, ownWrites } = kit;
  // The read replica's memory of the member's own writes (read-your-writes, ADR 0033), a Redis key
  // per member: gone once the service's erasure ran (nothing of the member is kept).
  if (ownWrites && handlers['user.deleted']) {
    handlers['user.deleted'] = andThen<'user.deleted'>(handlers['user.deleted'], (payload) => ownWrites.forget(payload.userId));
  }
  if (suspensions) {
    handlers['user.suspended'] = andThen<'user.suspended'>((payload, manager) => suspensions.apply(manager, payload), own['user.suspended']);
    handlers['user.unsuspended'] = andThen<'user.unsuspended'>((payload, manager) => suspensions.apply(manager, payload), own['user.unsuspended']);
    handlers['user.deleted'] = andThen<'user.deleted'>((payload, manager) => suspensions.forget(manager, payload.userId), handlers['user.deleted']);
  }
  if (pairs) {
    handlers['user.blocked'] = andThen<'user.blocked'>((payload, manager, envelope) => pairs.apply(manager, envelope.name, payload, envelope), own['user.blocked']);
    handlers['user.unblocked'] = andThen<'user.unblocked'>((payload, manager, envelope) => pairs.apply(manager, envelope.name, payload, envelope), own['user.unblocked']);
    handlers['match.ended'] = andThen<'match.ended'>((payload, manager, envelope) => pairs.apply(manager, envelope.name, payload, envelope), own['match.ended']);
    handlers['user.deleted'] = andThen<'user.deleted'>((payload, manager) => pairs.forget(manager, payload.userId), handlers['user.deleted']);
  }
  return handlers;
}
