import { DEPLOYED_SERVICES, serviceDatabaseName, type ServiceName } from '@mate/contracts';

/** Where the CLI finds a deployment: the same defaults `npm start` uses. */
export interface Deployment {
  redisUrl: string;
  /** REDIS_CLUSTER_NODES: the queues are on that Redis Cluster (credentials from redisUrl). */
  redisClusterNodes?: string;
  keyPrefix: string;
  /** Each deployed service's database (every one of them has an outbox). */
  databases: { service: ServiceName; url: string }[];
  /** Services that run; a consumer outside this list is reported as not deployed. */
  deployed: ServiceName[];
}

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
export const DEFAULT_KEY_PREFIX = 'mate';

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * The deployment from the service registry (libs/contracts service-registry.json) and the environment:
 * `mate_<database>` on DATABASE_URL for each deployed service that has one, REDIS_URL (and
 * REDIS_CLUSTER_NODES) and KEY_PREFIX. `--database <service>=<url>` replaces one database (or, given only for some,
 * limits the list to those), `--redis-url` and `--prefix` the rest.
 */
export function resolveDeployment(
  env: NodeJS.ProcessEnv,
  overrides: { databases: Map<string, string>; redisUrl?: string; keyPrefix?: string },
): Deployment {
  const base = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const fromRegistry = DEPLOYED_SERVICES.flatMap((s) => {
    const name = serviceDatabaseName(s);
    return name ? [{ service: s.name, url: withDatabase(base, name) }] : [];
  });
  const databases =
    overrides.databases.size > 0
      ? [...overrides.databases].map(([service, url]) => ({ service: service as ServiceName, url }))
      : fromRegistry;
  return {
    redisUrl: overrides.redisUrl ?? (env.REDIS_URL || DEFAULT_REDIS_URL),
    ...(env.REDIS_CLUSTER_NODES?.trim() ? { redisClusterNodes: env.REDIS_CLUSTER_NODES } : {}),
    keyPrefix: overrides.keyPrefix ?? (env.KEY_PREFIX || DEFAULT_KEY_PREFIX),
    databases,
    deployed: DEPLOYED_SERVICES.map((s) => s.name),
  };
}
