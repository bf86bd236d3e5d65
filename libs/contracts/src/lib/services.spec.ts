import { eventQueueName, eventsConsumedBy, SERVICES } from './events';
import { QueueName } from './jobs';
import { DEFAULT_PORTS } from './ports';
import { DEPLOYED_SERVICES, SERVICE_REGISTRY, serviceDatabaseName, serviceUrlVariable } from './services';

const everyPrefix = SERVICE_REGISTRY.flatMap((s) => [...s.routes, ...s.adminRoutes].map((prefix) => ({ prefix, service: s.name })));

describe('service registry', () => {
  it('lists every service of the catalogue except the gateway, once, with its own port', () => {
    const names = SERVICE_REGISTRY.map((s) => s.name);
    expect([...names].sort()).toEqual(Object.values(SERVICES).filter((n) => n !== SERVICES.gateway).sort());
    expect(new Set(SERVICE_REGISTRY.map((s) => s.port)).size).toBe(SERVICE_REGISTRY.length);
    for (const s of SERVICE_REGISTRY) {
      expect(s.port).toBeGreaterThanOrEqual(3101);
      expect(s.port).toBeLessThan(3200);
      expect(DEFAULT_PORTS[s.name]).toBe(s.port);
    }
  });

  it('keeps the ports of ARCHITECTURE §1: services 3101-3108 in the documented order', () => {
    expect(SERVICE_REGISTRY.slice(0, 8).map((s) => [s.name, s.port])).toEqual([
      ['auth-service', 3101],
      ['profile-service', 3102],
      ['matching-service', 3103],
      ['chat-service', 3104],
      ['call-service', 3105],
      ['safety-service', 3106],
      ['admin-service', 3107],
      ['notification-service', 3108],
    ]);
  });

  it('names each URL variable and database after the service', () => {
    for (const s of SERVICE_REGISTRY) {
      expect(s.urlVariable).toBe(serviceUrlVariable(s.name));
      if (s.database) expect(serviceDatabaseName(s)).toBe(`mate_${s.name.replace(/-service$/, '').replace(/-/g, '_')}`);
    }
    expect(serviceUrlVariable('auth-service')).toBe('AUTH_SERVICE_URL');
    expect(serviceUrlVariable('photo-moderation-service')).toBe('PHOTO_MODERATION_SERVICE_URL');
  });

  it('gives each route prefix to one service, under /api or /admin, never a prefix of the gateway itself', () => {
    expect(new Set(everyPrefix.map((p) => p.prefix)).size).toBe(everyPrefix.length);
    for (const { prefix } of everyPrefix) {
      expect(prefix).toMatch(/^\/(api|admin)(\/[a-z0-9-]+)*$/);
      expect(['/api', '/api/docs', '/socket.io', '/health', '/metrics']).not.toContain(prefix);
    }
  });

  it('lets through without a session only calls on the service’s own prefixes', () => {
    for (const s of SERVICE_REGISTRY) {
      for (const call of s.publicRoutes) {
        const [method, path] = call.split(' ');
        expect(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).toContain(method);
        expect(s.routes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))).toBe(true);
      }
    }
  });

  it('places every job queue with one service, and marks event consumers and job owners as workers', () => {
    const owners = SERVICE_REGISTRY.flatMap((s) => s.queues.map((queue) => ({ queue, service: s.name })));
    expect(owners.map((o) => o.queue).sort()).toEqual(Object.values(QueueName).sort());
    for (const s of DEPLOYED_SERVICES) {
      const consumes = eventsConsumedBy(s.name).length > 0;
      if (consumes || s.queues.length) expect({ service: s.name, worker: s.worker }).toEqual({ service: s.name, worker: true });
      expect(s.queues).not.toContain(eventQueueName(s.name));
    }
  });
});
