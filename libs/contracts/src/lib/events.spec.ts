import { EVENT_CATALOGUE, eventsConsumedBy, eventQueueName, SERVICES, type EventName } from './events';

describe('event catalogue', () => {
  it('names the producer and at least one consumer of every event', () => {
    for (const name of Object.keys(EVENT_CATALOGUE) as EventName[]) {
      const def = EVENT_CATALOGUE[name];
      expect(Object.values(SERVICES)).toContain(def.producer);
      expect(def.consumers.length).toBeGreaterThan(0);
      expect(def.consumers).not.toContain(def.producer);
    }
  });

  it('routes user.registered and user.verified to profile-service', () => {
    expect(eventsConsumedBy(SERVICES.profile)).toEqual(expect.arrayContaining(['user.registered', 'user.verified']));
    expect(eventQueueName(SERVICES.profile)).toBe('events.profile-service');
  });
});
