import registry from './service-registry.json';
import type { ServiceName } from './events';

/**
 * The registry of services behind the gateway: the one list the launcher (`npm start`, the e2e
 * runner), the gateway's route table, compose and the k8s manifests are derived from or checked
 * against (tools/infra-tests). The data lives in `service-registry.json` so the plain-Node
 * launcher reads it without a build step and `nx g @mate/tools:service` edits it as data
 * (docs/adr/0006). Not `services.json`: under a require hook Node would load it for `./services`.
 */
export interface ServiceDefinition {
  readonly name: ServiceName;
  /** Port on one machine (ARCHITECTURE §1); containers and pods use the same one. */
  readonly port: number;
  /**
   * `deployed`: built, started by `npm start`, shipped by compose and k8s. `planned`: not built
   * yet, but its prefixes are routed, so calls to it are answered 503 until it ships.
   */
  readonly status: 'deployed' | 'planned';
  /** Its own PostgreSQL database is `mate_<database>`; null for a service without one. */
  readonly database: string | null;
  /** Runs BullMQ workers (an event consumer or job queues) unless WORKERS=off. */
  readonly worker: boolean;
  /** Job queues whose worker lives in this service (its `events.<name>` queue is implied). */
  readonly queues: readonly string[];
  /** Path prefixes the gateway forwards to it (longest prefix wins). */
  readonly routes: readonly string[];
  /** Prefixes the gateway forwards only for sessions with role admin. */
  readonly adminRoutes: readonly string[];
  /** `METHOD /path` calls the gateway lets through without a session. */
  readonly publicRoutes: readonly string[];
  /** The gateway's variable for its base URL: `<NAME>_SERVICE_URL`. */
  readonly urlVariable: `${string}_SERVICE_URL`;
}

export type ServiceStatus = ServiceDefinition['status'];

export const SERVICE_REGISTRY: readonly ServiceDefinition[] = registry.services as unknown as ServiceDefinition[];

/** The services that exist today, in start order. */
export const DEPLOYED_SERVICES: readonly ServiceDefinition[] = SERVICE_REGISTRY.filter((s) => s.status === 'deployed');

export function serviceDefinition(name: ServiceName): ServiceDefinition | undefined {
  return SERVICE_REGISTRY.find((s) => s.name === name);
}

/** `auth-service` -> `AUTH_SERVICE_URL`. */
export function serviceUrlVariable(name: string): `${string}_SERVICE_URL` {
  return `${name.replace(/-service$/, '').toUpperCase().replace(/-/g, '_')}_SERVICE_URL`;
}

/** The PostgreSQL database a service owns on a deployment: `mate_<database>`. */
export function serviceDatabaseName(service: Pick<ServiceDefinition, 'database'>): string | null {
  return service.database ? `mate_${service.database}` : null;
}
