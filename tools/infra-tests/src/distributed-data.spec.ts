import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Container, K8sResource, podTemplate, render, Rendered } from './lib/kustomize';
import { discoverApps, rootPath } from './lib/workspace';

/**
 * Issue 29: overlays/distributed-data runs a Redis Cluster and PgBouncer, and gives every process
 * the settings the kit reads for them (REDIS_CLUSTER_NODES, DATABASE_URL through PgBouncer,
 * DATABASE_POOLING=transaction, DATABASE_READ_URL for the services that read from a replica).
 * The checks every overlay gets (schemas, probes, resources, security context, selectors, network
 * policies) run on it in k8s.spec.ts, schemas.spec.ts and network-policies.spec.ts; these are its own.
 */
const OVERLAY = rootPath('k8s/overlays/distributed-data');
const r = render(OVERLAY);
const dev = render(rootPath('k8s/overlays/dev'));

/** The services that read from a streaming replica (issue 29; docs/adr/0033). */
const READERS = ['matching-service', 'chat-service', 'call-service', 'admin-service'];
const services = discoverApps().filter((a) => a.database);

const find = (kind: string, name: string, from: Rendered = r) =>
  from.resources.find((x) => x.kind === kind && x.metadata.name === name);
const component = (w: K8sResource) => podTemplate(w)?.metadata?.labels?.['app.kubernetes.io/component'] ?? '';
const appOf = (w: K8sResource) => podTemplate(w)?.metadata?.labels?.['app.kubernetes.io/name'] ?? '';
const mainContainer = (w: K8sResource): Container => {
  const spec = podTemplate(w)?.spec;
  return spec?.containers.find((c) => c.name === 'app') ?? (spec?.containers[0] as Container);
};
const configData = (name: string) => (find('ConfigMap', name)?.data ?? {}) as Record<string, string>;

/**
 * What a container sees: its env (a secret as `secret:<key>`), over the ConfigMaps it loads whole.
 * Later entries win, as in Kubernetes (env over envFrom).
 */
function effectiveEnv(c: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of c.envFrom ?? [])
    if (from.configMapRef) Object.assign(env, configData(from.configMapRef.name));
  for (const e of c.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    env[e.name] = ref ? `secret:${ref.name}/${ref.key}` : (e.value ?? '');
  }
  return env;
}

const flag = (args: string[], name: string) =>
  args.includes(name) ? args[args.indexOf(name) + 1] : undefined;
const toBytes = (q: string) => {
  const m = /^(\d+)(mb|gb|Mi|Gi)$/.exec(q);
  if (!m) throw new Error(`unreadable size ${q}`);
  return Number(m[1]) * 1024 ** (['gb', 'Gi'].includes(m[2]) ? 3 : 2);
};

const redis = find('StatefulSet', 'redis-cluster') as K8sResource;
const redisSpec = redis?.spec as {
  replicas: number;
  serviceName: string;
  podManagementPolicy?: string;
  volumeClaimTemplates: Array<{
    metadata: { name: string };
    spec: { resources: { requests: { storage: string } } };
  }>;
};
const redisContainer = redis && mainContainer(redis);
const redisPort = redisContainer?.ports?.find((p) => p.name === 'redis')?.containerPort;
/** Every node of the StatefulSet by its stable name: `<pod>.<governing service>:<port>`. */
const redisNodes = redis
  ? Array.from(
      { length: redisSpec.replicas },
      (_, i) => `${redis.metadata.name}-${i}.${redisSpec.serviceName}:${redisPort}`,
    )
  : [];

describe('k8s overlays/distributed-data: each service gets the four settings', () => {
  const mate = r.resources.filter((w) =>
    ['gateway', 'service', 'worker', 'relay', 'migration'].includes(component(w)),
  );

  it('covers the API, worker and relay pods of every service with a database', () => {
    expect(services.length).toBeGreaterThan(0);
    for (const { name } of services) {
      const kinds = mate
        .filter((w) => appOf(w) === name && w.kind === 'Deployment')
        .map(component)
        .sort();
      expect({ name, kinds }).toEqual({ name, kinds: ['relay', 'service', 'worker'] });
    }
  });

  it('every Mate process that uses Redis is given the Redis Cluster: REDIS_CLUSTER_NODES = its six nodes, by name', () => {
    expect(redisNodes).toHaveLength(6);
    for (const w of mate) {
      for (const c of podTemplate(w)?.spec.containers ?? []) {
        const env = effectiveEnv(c);
        if (!('REDIS_URL' in env)) continue;
        expect({ where: `${w.kind}/${w.metadata.name}`, nodes: env.REDIS_CLUSTER_NODES?.split(',') }).toEqual(
          {
            where: `${w.kind}/${w.metadata.name}`,
            nodes: redisNodes,
          },
        );
      }
    }
  });

  it.each(services.map((s) => [s.name]))(
    '%s: API, worker and relay reach its database through PgBouncer in transaction mode, its readers a replica',
    (name) => {
      for (const w of mate.filter((x) => appOf(x) === name && x.kind === 'Deployment')) {
        const env = effectiveEnv(mainContainer(w));
        const where = w.metadata.name;
        expect({
          where,
          DATABASE_URL: env.DATABASE_URL,
          DATABASE_POOLING: env.DATABASE_POOLING,
          DATABASE_READ_URL: env.DATABASE_READ_URL,
        }).toEqual({
          where,
          DATABASE_URL: `secret:mate-secrets/${name}.PGBOUNCER_URL`,
          DATABASE_POOLING: 'transaction',
          DATABASE_READ_URL: READERS.includes(name)
            ? `secret:mate-secrets/${name}.PGBOUNCER_READ_URL`
            : undefined,
        });
      }
    },
  );

  it('the migration Jobs go to the primary itself, unpooled (a migration may need a session)', () => {
    for (const { name } of services) {
      const job = mate.find((w) => appOf(w) === name && component(w) === 'migration') as K8sResource;
      const env = effectiveEnv(mainContainer(job));
      expect({
        name,
        url: env.DATABASE_URL,
        pooling: env.DATABASE_POOLING,
        read: env.DATABASE_READ_URL,
      }).toEqual({
        name,
        url: `secret:mate-secrets/${name}.DATABASE_URL`,
        pooling: undefined,
        read: undefined,
      });
    }
  });

  it('the gateway has no database, and nothing outside the services is pooled', () => {
    const gateway = effectiveEnv(mainContainer(find('Deployment', 'gateway') as K8sResource));
    expect([gateway.DATABASE_URL, gateway.DATABASE_POOLING, gateway.DATABASE_READ_URL]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(configData('mate-config').DATABASE_POOLING).toBeUndefined();
  });
});

describe('k8s overlays/distributed-data: the Redis Cluster', () => {
  const args = redisContainer?.args ?? [];

  it('is a StatefulSet of 6 nodes in cluster mode, each with its cluster state and append-only file on its own volume', () => {
    expect(redisSpec.replicas).toBe(6);
    expect({
      cluster: flag(args, '--cluster-enabled'),
      config: flag(args, '--cluster-config-file'),
      appendonly: flag(args, '--appendonly'),
      appendfsync: flag(args, '--appendfsync'),
      policy: flag(args, '--maxmemory-policy'),
      dir: flag(args, '--dir'),
      hostname: flag(args, '--cluster-announce-hostname'),
      endpoint: flag(args, '--cluster-preferred-endpoint-type'),
    }).toEqual({
      cluster: 'yes',
      config: '/data/nodes.conf',
      appendonly: 'yes',
      appendfsync: 'everysec',
      policy: 'noeviction',
      dir: '/data',
      hostname: `$(POD_NAME).${redisSpec.serviceName}`,
      endpoint: 'hostname',
    });
    expect(redisContainer?.env?.find((e) => e.name === 'POD_NAME')).toEqual({
      name: 'POD_NAME',
      valueFrom: { fieldRef: { fieldPath: 'metadata.name' } },
    });
    expect(toBytes(flag(args, '--maxmemory') as string)).toBeLessThanOrEqual(
      0.8 * toBytes(String(redisContainer?.resources?.limits?.memory)),
    );
    const claim = redisSpec.volumeClaimTemplates.find((t) => t.metadata.name === 'data');
    expect(claim?.spec.resources.requests.storage).toMatch(/Gi$/);
    expect((redisContainer as Container & { volumeMounts?: unknown[] }).volumeMounts).toEqual(
      expect.arrayContaining([{ name: 'data', mountPath: '/data' }]),
    );
  });

  it('asks for the password from mate-secrets and gives replicas the same one to reach their master', () => {
    expect([flag(args, '--requirepass'), flag(args, '--masterauth')]).toEqual([
      '$(REDIS_PASSWORD)',
      '$(REDIS_PASSWORD)',
    ]);
    expect(redisContainer?.env?.find((e) => e.name === 'REDIS_PASSWORD')?.valueFrom?.secretKeyRef).toEqual({
      name: 'mate-secrets',
      key: 'REDIS_PASSWORD',
    });
  });

  it('has a headless Service that names every node before it is ready, with the client and bus ports', () => {
    const service = find('Service', redisSpec.serviceName) as K8sResource;
    const spec = service.spec as {
      clusterIP: string;
      publishNotReadyAddresses: boolean;
      ports: Array<{ port: number }>;
    };
    expect(spec.clusterIP).toBe('None');
    expect(spec.publishNotReadyAddresses).toBe(true);
    expect(spec.ports.map((p) => p.port).sort((a, b) => a - b)).toEqual([6379, 16379]);
    expect(redisSpec.podManagementPolicy).toBe('Parallel');
  });

  it('is ready only in a healthy cluster, never puts two nodes on one machine, and loses at most one node to a drain', () => {
    expect(redisContainer?.readinessProbe?.exec?.command.join(' ')).toContain('cluster_state:ok');
    const affinity = (
      podTemplate(redis)?.spec as { affinity?: { podAntiAffinity?: Record<string, unknown> } }
    ).affinity;
    const required = affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution as Array<{
      topologyKey: string;
      labelSelector: { matchLabels: Record<string, string> };
    }>;
    expect(required.map((t) => t.topologyKey)).toEqual(['kubernetes.io/hostname']);
    // The anti-affinity term selects the nodes' own pods (and so keeps them apart).
    expect(podTemplate(redis)?.metadata?.labels).toMatchObject(required[0].labelSelector.matchLabels);
    expect(Object.keys(required[0].labelSelector.matchLabels).length).toBeGreaterThan(0);
    const pdbs = r.resources.filter(
      (p) =>
        p.kind === 'PodDisruptionBudget' &&
        Object.entries(
          (p.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels,
        ).every(([k, v]) => podTemplate(redis)?.metadata?.labels?.[k] === v),
    );
    expect(pdbs.map((p) => (p.spec as { maxUnavailable?: number }).maxUnavailable)).toEqual([1]);
  });

  it('a Job creates the cluster from every node, with one replica per master, by the script in the overlay', () => {
    const job = find('Job', 'redis-cluster-create') as K8sResource;
    const c = mainContainer(job);
    const env = effectiveEnv(c);
    expect(env.REDIS_NODES.trim().split(/\s+/)).toEqual(redisNodes);
    expect(env.CLUSTER_REPLICAS).toBe('1');
    expect(env.REDISCLI_AUTH).toBe('secret:mate-secrets/REDIS_PASSWORD');
    expect(c.command).toEqual(['sh', '/scripts/create-cluster.sh']);
    const script = configData('redis-cluster-scripts')['create-cluster.sh'];
    expect(script).toBe(fs.readFileSync(path.join(OVERLAY, 'redis-cluster/create-cluster.sh'), 'utf8'));
    expect(script).toContain('--cluster-replicas "$replicas"');
    // Not a pod of the redis Service: the Job's pods carry another component.
    expect(component(job)).not.toBe('redis');
    const check = spawnSync('sh', ['-n', path.join(OVERLAY, 'redis-cluster/create-cluster.sh')], {
      encoding: 'utf8',
    });
    expect([check.status, check.stderr]).toEqual([0, '']);
  });
});

describe('k8s overlays/distributed-data: PgBouncer', () => {
  const deployment = find('Deployment', 'pgbouncer') as K8sResource;
  const init = podTemplate(deployment)?.spec.initContainers?.find(
    (c) => c.name === 'render-config',
  ) as Container;
  const config = configData('pgbouncer-config');
  /** `service pool read_pool` lines of databases.conf. */
  const lines = config['databases.conf']
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(/\s+/));

  it('runs at least two pods, spread over machines, with a disruption budget, behind a Service on 6432', () => {
    expect((deployment.spec as { replicas: number }).replicas).toBeGreaterThanOrEqual(2);
    const pdb = find('PodDisruptionBudget', 'pgbouncer');
    expect((pdb?.spec as { minAvailable: number }).minAvailable).toBe(1);
    const affinity = (podTemplate(deployment)?.spec as { affinity?: { podAntiAffinity?: object } }).affinity;
    expect(JSON.stringify(affinity?.podAntiAffinity)).toContain('kubernetes.io/hostname');
    const service = find('Service', 'pgbouncer');
    expect((service?.spec as { ports: Array<{ port: number }> }).ports.map((p) => p.port)).toEqual([6432]);
  });

  it('pools by transaction, with the configuration the init container renders', () => {
    const ini = config['pgbouncer.ini'];
    expect(ini).toMatch(/^pool_mode = transaction$/m);
    expect(ini).toMatch(/^auth_file = \/config\/userlist\.txt$/m);
    expect(mainContainer(deployment).command).toEqual(['pgbouncer', '/config/pgbouncer.ini']);
    expect(init.command).toEqual(['sh', '/etc/pgbouncer-template/render-config.sh']);
    for (const file of ['render-config.sh', 'databases.conf', 'pgbouncer.ini'])
      expect({
        file,
        same: config[file] === fs.readFileSync(path.join(OVERLAY, 'pgbouncer', file), 'utf8'),
      }).toEqual({ file, same: true });
  });

  it('declares a pool for every service with a database, and a read pool for exactly the services reading a replica', () => {
    expect(lines.map(([service]) => service).sort()).toEqual(services.map((s) => s.name).sort());
    expect(
      lines
        .filter(([, , read]) => read !== '-')
        .map(([service]) => service)
        .sort(),
    ).toEqual([...READERS].sort());
  });

  it('takes its credentials from the services own keys of mate-secrets: each primary, and the replica of each reader', () => {
    const env = effectiveEnv(init);
    const expected: Record<string, string> = {};
    for (const { name } of services) {
      const variable = name.toUpperCase().replace(/-/g, '_');
      expected[`${variable}_DATABASE_URL`] = `secret:mate-secrets/${name}.DATABASE_URL`;
      if (READERS.includes(name))
        expected[`${variable}_DATABASE_REPLICA_URL`] = `secret:mate-secrets/${name}.DATABASE_REPLICA_URL`;
    }
    const given = Object.fromEntries(Object.entries(env).filter(([k]) => k.endsWith('_URL')));
    expect(given).toEqual(expected);
  });

  it('its server connections stay under PostgreSQL default max_connections (100) with room for migrations and admins', () => {
    const reserve = Number(/^reserve_pool_size = (\d+)$/m.exec(config['pgbouncer.ini'])?.[1]);
    const pods = (deployment.spec as { replicas: number }).replicas;
    for (const [service, pool, read] of lines) {
      for (const size of [pool, read].filter((s) => s !== '-')) {
        const connections = pods * (Number(size) + reserve);
        expect({ service, connections, fits: connections <= 90 }).toEqual({
          service,
          connections,
          fits: true,
        });
      }
    }
  });

  describe('render-config.sh, run on the dev overlay database URLs (and a replica for each reader)', () => {
    const devSecrets = (find('Secret', 'mate-secrets', dev)?.stringData ?? {}) as Record<string, string>;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgbouncer-config-'));
    const run = (env: Record<string, string>) =>
      spawnSync('sh', [path.join(OVERLAY, 'pgbouncer/render-config.sh')], {
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          CONFIG_DIR: dir,
          TEMPLATE_DIR: path.join(OVERLAY, 'pgbouncer'),
          ...env,
        },
      });
    const urls: Record<string, string> = {};
    for (const { name } of services) {
      const variable = name.toUpperCase().replace(/-/g, '_');
      urls[`${variable}_DATABASE_URL`] = devSecrets[`${name}.DATABASE_URL`];
      if (READERS.includes(name))
        urls[`${variable}_DATABASE_REPLICA_URL`] = devSecrets[`${name}.DATABASE_URL`].replace(
          '@postgres:',
          '@postgres-replica:',
        );
    }
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('declares each primary as its database name and each replica as <db>_read, with the pool sizes of databases.conf', () => {
      const result = run(urls);
      expect([result.status, result.stderr]).toEqual([0, '']);
      const ini = fs.readFileSync(path.join(dir, 'pgbouncer.ini'), 'utf8');
      for (const [service, pool, read] of lines) {
        const database = services.find((s) => s.name === service)?.database as string;
        expect(ini).toContain(`${database} = host=postgres port=5432 dbname=${database} pool_size=${pool}\n`);
        if (read === '-') expect(ini).not.toContain(`${database}_read =`);
        else
          expect(ini).toContain(
            `${database}_read = host=postgres-replica port=5432 dbname=${database} pool_size=${read}\n`,
          );
      }
      expect(ini).toMatch(/^pool_mode = transaction$/m);
      // dev's services share one role: listed once.
      expect(fs.readFileSync(path.join(dir, 'userlist.txt'), 'utf8')).toBe('"mate" "mate"\n');
      expect(fs.statSync(path.join(dir, 'userlist.txt')).mode & 0o077).toBe(0);
    });

    it('refuses a missing replica, a replica of another role or database, and a password that needs URL escaping', () => {
      const cases: Array<[string, Record<string, string>, RegExp]> = [
        [
          'no replica',
          { ...urls, MATCHING_SERVICE_DATABASE_REPLICA_URL: '' },
          /MATCHING_SERVICE_DATABASE_REPLICA_URL is not set/,
        ],
        [
          'other database',
          { ...urls, CHAT_SERVICE_DATABASE_REPLICA_URL: 'postgres://mate:mate@replica:5432/mate_other' },
          /must name the primary's role and database/,
        ],
        [
          'escaped password',
          { ...urls, AUTH_SERVICE_DATABASE_URL: 'postgres://mate:a%40b@postgres:5432/mate_auth' },
          /need no URL escaping/,
        ],
        [
          'no primary',
          { ...urls, SAFETY_SERVICE_DATABASE_URL: '' },
          /SAFETY_SERVICE_DATABASE_URL is not set/,
        ],
      ];
      for (const [what, env, message] of cases) {
        const result = run(env);
        expect({ what, status: result.status, stderr: message.test(result.stderr) }).toEqual({
          what,
          status: 1,
          stderr: true,
        });
      }
    });
  });
});
