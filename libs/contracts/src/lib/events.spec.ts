import {
  aggregateIdOf,
  EVENT_CATALOGUE,
  eventsConsumedBy,
  eventQueueName,
  isKnownEvent,
  SERVICES,
  type EventName,
} from './events';
import { DEPLOYED_SERVICES } from './services';

/** The services that run today (the registry); the catalogue routes to no other. */
const DEPLOYED_CONSUMERS: string[] = DEPLOYED_SERVICES.map((s) => s.name);

describe('event catalogue', () => {
  it('names the producer and at least one consumer, now or later, of every event', () => {
    for (const name of Object.keys(EVENT_CATALOGUE) as EventName[]) {
      const def = EVENT_CATALOGUE[name];
      expect(Object.values(SERVICES)).toContain(def.producer);
      expect(def.consumers.length + def.later.length).toBeGreaterThan(0);
      expect([...def.consumers, ...def.later]).not.toContain(def.producer);
    }
  });

  it('routes only to consumers that exist today, so no queue fills for a service not yet built', () => {
    for (const name of Object.keys(EVENT_CATALOGUE) as EventName[]) {
      for (const consumer of EVENT_CATALOGUE[name].consumers) expect(DEPLOYED_CONSUMERS).toContain(consumer);
    }
  });

  it('routes user.registered and user.verified to profile-service', () => {
    expect(eventsConsumedBy(SERVICES.profile)).toEqual(expect.arrayContaining(['user.registered', 'user.verified']));
    expect(eventQueueName(SERVICES.profile)).toBe('events.profile-service');
  });

  it('finds the aggregate id in the payload of state-carrying events, and none for facts', () => {
    const userId = '00000000-0000-4000-8000-000000000001';
    expect(aggregateIdOf('profile.updated', { userId } as never)).toBe(userId);
    expect(aggregateIdOf('photo.deleted', { photoId: 'p1', userId, deletedAt: '' })).toBe('p1');
    expect(aggregateIdOf('user.email_changed', { userId, oldEmail: 'a', newEmail: 'b', changedAt: '' })).toBeNull();
  });

  it('tells known event names from names a newer producer wrote', () => {
    expect(isKnownEvent('profile.updated')).toBe(true);
    expect(isKnownEvent('match.created')).toBe(true);
    expect(isKnownEvent('call.started')).toBe(false);
    expect(isKnownEvent('toString')).toBe(false);
  });
});
