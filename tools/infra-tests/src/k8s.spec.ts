import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import {
  allContainers,
  Container,
  findKustomizationFile,
  idOf,
  imageName,
  imageTag,
  K8sResource,
  podTemplate,
  render,
  Rendered,
} from './lib/kustomize';
import { App, discoverApps, PORTS, rootPath, scriptDatabases, urlVariable, walkFiles } from './lib/workspace';
import { SERVICE_REGISTRY } from '@mate/contracts';

const apps = discoverApps();
const K8S = rootPath('k8s');
const overlayDirs = fs.existsSync(path.join(K8S, 'overlays'))
  ? fs
      .readdirSync(path.join(K8S, 'overlays'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && findKustomizationFile(path.join(K8S, 'overlays', d.name)))
      .map((d) => d.name)
  : [];
const targets: Array<[string, string]> = [
  ['base', path.join(K8S, 'base')],
  ...overlayDirs.map((o): [string, string] => [`overlays/${o}`, path.join(K8S, 'overlays', o)]),
];
const rendered = new Map<string, Rendered>(targets.map(([name, dir]) => [name, render(dir)]));

/** it.each over some apps; a skipped placeholder while there is none (Jest refuses an empty table). */
const eachOf = (list: App[]) =>
  list.length > 0
    ? it.each(list.map((a) => [a.name, a] as [string, App | undefined]))
    : it.skip.each([['(none yet)', undefined] as [string, App | undefined]]);

const byKind = (r: Rendered, kind: string) => r.resources.filter((x) => x.kind === kind);
const find = (r: Rendered, kind: string, name: string) =>
  r.resources.find((x) => x.kind === kind && x.metadata.name === name);
const labelsOf = (r: K8sResource) => r.metadata.labels ?? {};
/** Deployments of Mate's own apps (not dev's backing services). */
const appDeployments = (r: Rendered) =>
  byKind(r, 'Deployment').filter((d) =>
    ['gateway', 'service', 'web'].includes(labelsOf(d)['app.kubernetes.io/component'] ?? ''),
  );
const mainContainer = (d: K8sResource): Container => {
  const spec = podTemplate(d)?.spec;
  return spec?.containers.find((c) => c.name === 'app') ?? (spec?.containers[0] as Container);
};
const kindOfDeployment = (d: K8sResource) => labelsOf(d)['app.kubernetes.io/component'];
const selectorMatches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

describe('k8s manifests: structure', () => {
  it('has a base and the dev and prod overlays', () => {
    expect(overlayDirs).toEqual(expect.arrayContaining(['dev', 'prod']));
  });

  it('every YAML file under k8s/ is reached from base or an overlay (nothing forgotten in a resources list)', () => {
    const reached = new Set<string>();
    for (const r of rendered.values()) r.files.forEach((f) => reached.add(f));
    const orphans = walkFiles(K8S, (f) => /\.ya?ml$/.test(f)).filter((f) => !reached.has(f));
    expect(orphans.map((f) => path.relative(K8S, f))).toEqual([]);
  });

  it('the dev database init script is the same as docker/postgres/create-databases.sh', () => {
    const devCopy = rootPath('k8s/overlays/dev/backing/create-databases.sh');
    expect(fs.readFileSync(devCopy, 'utf8')).toBe(
      fs.readFileSync(rootPath('docker/postgres/create-databases.sh'), 'utf8'),
    );
  });

  it('k8s/README.md documents every secret key the manifests read', () => {
    const readme = fs.readFileSync(rootPath('k8s/README.md'), 'utf8');
    const keys = new Set<string>();
    for (const r of rendered.values()) {
      for (const { container } of allContainers(r.resources)) {
        for (const e of container.env ?? [])
          if (e.valueFrom?.secretKeyRef?.name === 'mate-secrets') keys.add(e.valueFrom.secretKeyRef.key);
      }
    }
    expect([...keys].filter((k) => !readme.includes(k))).toEqual([]);
  });

  it("k8s/README.md's dev build builds every image the dev overlay runs", () => {
    const readme = fs.readFileSync(rootPath('k8s/README.md'), 'utf8');
    // tools/scripts/containers.mjs builds each deployed service of the registry, the gateway and
    // both web apps, tagged MATE_TAG.
    expect(readme).toMatch(/MATE_TAG=dev node tools\/scripts\/containers\.mjs build/);
    const registry = JSON.parse(fs.readFileSync(rootPath('libs/contracts/src/lib/service-registry.json'), 'utf8')) as {
      services: { name: string; status: string }[];
    };
    const built = [...registry.services.filter((s) => s.status === 'deployed').map((s) => s.name), 'gateway', 'web', 'admin-web'].map(
      (app) => `mate/${app}`,
    );
    const dev = rendered.get('overlays/dev') as Rendered;
    const devImages = new Set(
      allContainers(dev.resources)
        .map(({ container }) => imageName(container.image ?? ''))
        .filter((image) => image.startsWith('mate/')),
    );
    expect([...devImages].filter((image) => !built.includes(image)).sort()).toEqual([]);
  });

  it('k8s/deploy.sh is valid shell', () => {
    const r = spawnSync('sh', ['-n', rootPath('k8s/deploy.sh')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});

describe.each(targets.map(([name]) => name))('k8s %s', (target) => {
  const r = rendered.get(target) as Rendered;

  eachOf(apps)('%s has a Deployment and a Service of the same name', (_name, app) => {
    if (!app) return;
    expect(find(r, 'Deployment', app.name)).toBeDefined();
    expect(find(r, 'Service', app.name)).toBeDefined();
  });

  it('every workload container has an image, resources.requests and resources.limits (cpu and memory)', () => {
    const problems: string[] = [];
    for (const { resource, container } of allContainers(r.resources)) {
      const where = `${idOf(resource)} container ${container.name}`;
      if (!container.image) problems.push(`${where}: no image`);
      const { requests, limits } = container.resources ?? {};
      if (!requests?.cpu || !requests?.memory)
        problems.push(`${where}: resources.requests.cpu/memory missing`);
      if (!limits?.memory || !limits?.cpu) problems.push(`${where}: resources.limits.cpu/memory missing`);
    }
    expect(problems).toEqual([]);
  });

  it('every Deployment and StatefulSet container has a readinessProbe and a livenessProbe', () => {
    const problems: string[] = [];
    for (const d of [...byKind(r, 'Deployment'), ...byKind(r, 'StatefulSet')]) {
      for (const c of podTemplate(d)?.spec.containers ?? []) {
        if (!c.readinessProbe) problems.push(`${idOf(d)} ${c.name}: no readinessProbe`);
        if (!c.livenessProbe) problems.push(`${idOf(d)} ${c.name}: no livenessProbe`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('app Deployments probe the agreed health endpoints on their named http port', () => {
    for (const d of appDeployments(r)) {
      const c = mainContainer(d);
      const web = kindOfDeployment(d) === 'web';
      expect({
        deployment: d.metadata.name,
        readiness: c.readinessProbe?.httpGet,
        liveness: c.livenessProbe?.httpGet,
      }).toEqual({
        deployment: d.metadata.name,
        readiness: { path: web ? '/health' : '/health/ready', port: 'http' },
        liveness: { path: web ? '/health' : '/health/live', port: 'http' },
      });
    }
  });

  it('app pods run as non-root, without privilege escalation, on a read-only root filesystem', () => {
    for (const w of r.resources.filter((x) =>
      ['gateway', 'service', 'web', 'migration'].includes(labelsOf(x)['app.kubernetes.io/component'] ?? ''),
    )) {
      const spec = podTemplate(w)?.spec;
      if (!spec) continue;
      for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
        const where = `${idOf(w)} ${c.name}`;
        expect({
          where,
          runAsNonRoot: c.securityContext?.runAsNonRoot ?? spec.securityContext?.runAsNonRoot,
        }).toEqual({ where, runAsNonRoot: true });
        expect({
          where,
          ro: c.securityContext?.readOnlyRootFilesystem,
          esc: c.securityContext?.allowPrivilegeEscalation,
        }).toEqual({
          where,
          ro: true,
          esc: false,
        });
      }
    }
  });

  it('app containers take settings from ConfigMap mate-config, listen on PORT = the http containerPort = the ARCHITECTURE port', () => {
    for (const d of appDeployments(r)) {
      const c = mainContainer(d);
      const name = d.metadata.name;
      expect({ name, envFrom: c.envFrom }).toEqual({
        name,
        envFrom: expect.arrayContaining([{ configMapRef: { name: 'mate-config' } }]),
      });
      const port = c.ports?.find((p) => p.name === 'http')?.containerPort;
      const env = c.env?.find((e) => e.name === 'PORT')?.value;
      expect({ name, port, env: Number(env) }).toEqual({ name, port: PORTS[name] ?? port, env: port });
      if (kindOfDeployment(d) !== 'web') {
        const secretKeys = (c.env ?? [])
          .filter((e) => e.valueFrom?.secretKeyRef?.name === 'mate-secrets')
          .map((e) => e.name);
        expect({ name, secretKeys }).toEqual({
          name,
          secretKeys: expect.arrayContaining(['JWT_SECRET', 'INTERNAL_TOKEN', 'REDIS_URL']),
        });
      }
    }
  });

  it('every Service selects the pods of its Deployment (and no migration pod) on a named container port', () => {
    for (const s of byKind(r, 'Service')) {
      const spec = s.spec as {
        selector: Record<string, string>;
        ports: Array<{ name?: string; port: number; targetPort?: string | number }>;
      };
      const pods = r.resources.filter(
        (w) => podTemplate(w) && selectorMatches(spec.selector, podTemplate(w)?.metadata?.labels),
      );
      expect({ service: s.metadata.name, workloads: pods.map((w) => w.kind) }).toEqual({
        service: s.metadata.name,
        workloads: [expect.stringMatching(/^(Deployment|StatefulSet)$/)],
      });
      const containerPorts = podTemplate(pods[0])?.spec.containers.flatMap((c) => c.ports ?? []) ?? [];
      for (const p of spec.ports) {
        const target = p.targetPort ?? p.port;
        const ok = containerPorts.some((cp) => cp.name === target || cp.containerPort === target);
        expect({ service: s.metadata.name, port: p.port, targetPortFound: ok }).toEqual({
          service: s.metadata.name,
          port: p.port,
          targetPortFound: true,
        });
      }
      if (PORTS[s.metadata.name] !== undefined) {
        expect({ service: s.metadata.name, ports: spec.ports.map((p) => p.port) }).toEqual({
          service: s.metadata.name,
          ports: [PORTS[s.metadata.name]],
        });
      }
    }
  });

  it('the gateway and every service have a HorizontalPodAutoscaler and leave replicas to it', () => {
    for (const d of appDeployments(r).filter((x) => kindOfDeployment(x) !== 'web')) {
      const hpa = byKind(r, 'HorizontalPodAutoscaler').find((h) => {
        const ref = (h.spec as { scaleTargetRef: { kind: string; name: string } }).scaleTargetRef;
        return ref.kind === 'Deployment' && ref.name === d.metadata.name;
      });
      expect({ deployment: d.metadata.name, hpa: hpa?.metadata.name }).toEqual({
        deployment: d.metadata.name,
        hpa: d.metadata.name,
      });
      const { minReplicas, maxReplicas } = hpa?.spec as { minReplicas: number; maxReplicas: number };
      expect(minReplicas).toBeGreaterThanOrEqual(1);
      expect(maxReplicas).toBeGreaterThanOrEqual(minReplicas);
      expect({ deployment: d.metadata.name, replicas: (d.spec as { replicas?: number }).replicas }).toEqual({
        deployment: d.metadata.name,
        replicas: undefined,
      });
    }
    for (const h of byKind(r, 'HorizontalPodAutoscaler')) {
      const ref = (h.spec as { scaleTargetRef: { kind: string; name: string } }).scaleTargetRef;
      expect(find(r, ref.kind, ref.name)).toBeDefined();
    }
  });

  eachOf(apps.filter((a) => a.database))(
    '%s has a migration (Job or init container running `migrate`) with its own DATABASE_URL',
    (_name, app) => {
      if (!app) return;
      const deployment = find(r, 'Deployment', app.name);
      expect({ deployment: app.name, exists: Boolean(deployment) }).toEqual({
        deployment: app.name,
        exists: true,
      });
      if (!deployment) return;
      const image = imageName(mainContainer(deployment).image ?? '');
      const migrations = allContainers(r.resources).filter(
        ({ container, resource }) =>
          imageName(container.image ?? '') === image &&
          [...(container.command ?? []), ...(container.args ?? [])].includes('migrate') &&
          (resource.kind === 'Job' || resource.kind === 'CronJob' || resource.kind === 'Deployment'),
      );
      expect(migrations.length).toBeGreaterThanOrEqual(1);
      for (const { resource, container, init } of migrations) {
        expect(resource.kind === 'Job' || init).toBe(true);
        const db = container.env?.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef;
        expect(db).toEqual({ name: 'mate-secrets', key: `${app.name}.DATABASE_URL` });
      }
      // The serving pods read the same database: directly, or through PgBouncer where the overlay
      // pools (overlays/distributed-data: DATABASE_POOLING=transaction, key <app>.PGBOUNCER_URL).
      const serving = mainContainer(deployment);
      const pooled = serving.env?.find((e) => e.name === 'DATABASE_POOLING')?.value === 'transaction';
      expect(serving.env?.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
        name: 'mate-secrets',
        key: `${app.name}.${pooled ? 'PGBOUNCER_URL' : 'DATABASE_URL'}`,
      });
    },
  );

  it('every ConfigMap and Secret a pod reads exists (or is removed on purpose to be provided by the cluster), with the keys read', () => {
    const problems: string[] = [];
    const dataOf = (res: K8sResource) =>
      ({ ...(res.data as object), ...(res.stringData as object) }) as Record<string, string>;
    const check = (kind: 'ConfigMap' | 'Secret', name: string, key: string | undefined, where: string) => {
      const res = find(r, kind, name);
      if (!res) {
        if (!r.deleted.has(`${kind}/${name}`)) problems.push(`${where}: ${kind}/${name} does not exist`);
        return;
      }
      if (key !== undefined && !(key in dataOf(res)))
        problems.push(`${where}: ${kind}/${name} has no key ${key}`);
    };
    for (const { resource, container } of allContainers(r.resources)) {
      const where = `${idOf(resource)} ${container.name}`;
      for (const e of container.envFrom ?? []) {
        if (e.configMapRef) check('ConfigMap', e.configMapRef.name, undefined, where);
        if (e.secretRef) check('Secret', e.secretRef.name, undefined, where);
      }
      for (const e of container.env ?? []) {
        // An optional key (web push's VAPID pair) may be missing: the pod then runs without it.
        if (e.valueFrom?.secretKeyRef)
          check('Secret', e.valueFrom.secretKeyRef.name, e.valueFrom.secretKeyRef.optional ? undefined : e.valueFrom.secretKeyRef.key, where);
        if (e.valueFrom?.configMapKeyRef)
          check('ConfigMap', e.valueFrom.configMapKeyRef.name, e.valueFrom.configMapKeyRef.key, where);
      }
    }
    for (const w of r.resources) {
      for (const v of podTemplate(w)?.spec.volumes ?? []) {
        if (v.configMap) check('ConfigMap', v.configMap.name, undefined, idOf(w));
        if (v.secret) check('Secret', v.secret.secretName, undefined, idOf(w));
      }
    }
    expect(problems).toEqual([]);
  });

  it('mate-config holds <SERVICE>_URL = http://<app>:<port> for every backend app', () => {
    const config = find(r, 'ConfigMap', 'mate-config');
    expect(config).toBeDefined();
    const data = (config?.data ?? {}) as Record<string, string>;
    for (const app of apps.filter((a) => a.kind === 'service' && a.port)) {
      expect({ [urlVariable(app.name)]: data[urlVariable(app.name)] }).toEqual({
        [urlVariable(app.name)]: `http://${app.name}:${app.port}`,
      });
    }
    expect(data.HOST).toBe('0.0.0.0');
  });

  it('Ingresses route the gateway paths (/api, /admin, /socket.io, /health) and / of every web app to existing Services', () => {
    const routes: Array<{ host: string; path: string; service: string }> = [];
    for (const ing of byKind(r, 'Ingress')) {
      const rules = (
        ing.spec as {
          rules: Array<{
            host: string;
            http: {
              paths: Array<{
                path: string;
                backend: { service: { name: string; port: { name?: string; number?: number } } };
              }>;
            };
          }>;
        }
      ).rules;
      for (const rule of rules) {
        for (const p of rule.http.paths) {
          const svc = find(r, 'Service', p.backend.service.name);
          expect({
            ingress: ing.metadata.name,
            backend: p.backend.service.name,
            exists: Boolean(svc),
          }).toEqual({
            ingress: ing.metadata.name,
            backend: p.backend.service.name,
            exists: true,
          });
          const ports = (svc?.spec as { ports: Array<{ name?: string; port: number }> }).ports;
          const port = p.backend.service.port;
          expect(
            ports.some((sp) => (port.name !== undefined ? sp.name === port.name : sp.port === port.number)),
          ).toBe(true);
          routes.push({ host: rule.host, path: p.path, service: p.backend.service.name });
        }
      }
    }
    if (find(r, 'Deployment', 'gateway')) {
      const gatewayPaths = routes.filter((x) => x.service === 'gateway').map((x) => x.path);
      expect(gatewayPaths).toEqual(expect.arrayContaining(['/api', '/admin', '/socket.io', '/health']));
    }
    for (const d of appDeployments(r).filter((x) => kindOfDeployment(x) === 'web')) {
      expect({
        web: d.metadata.name,
        routed: routes.some((x) => x.service === d.metadata.name && x.path === '/'),
      }).toEqual({
        web: d.metadata.name,
        routed: true,
      });
    }
  });
});

/** The services whose processes run BullMQ workers and an outbox relay (every ServiceModule service). */
const servicesWithWorkers = SERVICE_REGISTRY.filter((s) => s.status === 'deployed' && s.worker).map((s) => s.name);
const envValue = (c: Container, name: string) => c.env?.find((e) => e.name === name)?.value;
/** What a pod of a service's Deployment runs: the kit's two switches, as the container sets them. */
const roleOf = (d: K8sResource) => ({
  workers: envValue(mainContainer(d), 'WORKERS'),
  relay: envValue(mainContainer(d), 'OUTBOX_RELAY'),
});
const hpaOf = (r: Rendered, deployment: string) =>
  byKind(r, 'HorizontalPodAutoscaler').find((h) => {
    const ref = (h.spec as { scaleTargetRef: { kind: string; name: string } }).scaleTargetRef;
    return ref.kind === 'Deployment' && ref.name === deployment;
  });
const pdbsSelecting = (r: Rendered, d: K8sResource) =>
  byKind(r, 'PodDisruptionBudget').filter((p) =>
    selectorMatches(
      (p.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels,
      podTemplate(d)?.metadata?.labels,
    ),
  );

describe.each(targets.map(([name]) => name))('k8s %s: API, worker and relay Deployments (issue 14)', (target) => {
  const r = rendered.get(target) as Rendered;
  const deploymentsOf = (service: string) =>
    byKind(r, 'Deployment').filter((d) => labelsOf(d)['app.kubernetes.io/name'] === service);

  it('there are services with workers to check', () => {
    expect(servicesWithWorkers.length).toBeGreaterThan(0);
  });

  it.each(servicesWithWorkers)(
    '%s: the API pods run neither; the workers and the relay each run in exactly one Deployment',
    (service) => {
      const api = find(r, 'Deployment', service) as K8sResource;
      expect({ service, api: roleOf(api).relay }).toEqual({ service, api: 'off' });
      const workers = deploymentsOf(service).filter((d) => roleOf(d).workers === 'on').map((d) => d.metadata.name);
      const relays = deploymentsOf(service).filter((d) => roleOf(d).relay === 'on').map((d) => d.metadata.name);
      // dev keeps profile-service's photo workers in its one API pod (photos on that pod's disk).
      const expectedWorkers = target === 'overlays/dev' && service === 'profile-service' ? service : `${service}-worker`;
      expect({ service, workers, relays }).toEqual({ service, workers: [expectedWorkers], relays: [`${service}-relay`] });
      const worker = find(r, 'Deployment', `${service}-worker`);
      if (worker) expect({ service, worker: roleOf(worker) }).toEqual({ service, worker: { workers: 'on', relay: 'off' } });
      const relay = find(r, 'Deployment', `${service}-relay`) as K8sResource;
      expect({ service, relay: roleOf(relay) }).toEqual({ service, relay: { workers: 'off', relay: 'on' } });
      // Every Deployment of the service sets both switches explicitly (the kit defaults them to on).
      for (const d of deploymentsOf(service)) {
        expect({ deployment: d.metadata.name, set: Object.values(roleOf(d)).every((v) => v === 'on' || v === 'off') }).toEqual({
          deployment: d.metadata.name,
          set: true,
        });
      }
    },
  );

  it.each(servicesWithWorkers)(
    '%s: worker and relay pods run the API pod: same image, command, settings, secrets, ports and volumes',
    (service) => {
      const api = find(r, 'Deployment', service) as K8sResource;
      const shape = (d: K8sResource) => {
        const c = mainContainer(d);
        return {
          image: c.image,
          args: c.args,
          envFrom: c.envFrom,
          env: (c.env ?? []).filter((e) => !['WORKERS', 'OUTBOX_RELAY', 'OUTBOX_POLL_MS'].includes(e.name)),
          ports: c.ports,
          securityContext: c.securityContext,
          podSecurity: podTemplate(d)?.spec.securityContext,
          volumes: podTemplate(d)?.spec.volumes,
        };
      };
      for (const name of [`${service}-worker`, `${service}-relay`]) {
        const d = find(r, 'Deployment', name);
        if (!d) continue;
        expect({ deployment: name, ...shape(d) }).toEqual({ deployment: name, ...shape(api) });
      }
    },
  );

  it('worker and relay pods: no Service, the kit health endpoints on the http port (the app listens with WORKERS on or off), requests and limits', () => {
    const background = byKind(r, 'Deployment').filter((d) => ['worker', 'relay'].includes(kindOfDeployment(d) ?? ''));
    expect(background.length).toBeGreaterThan(0);
    for (const d of background) {
      const c = mainContainer(d);
      const name = d.metadata.name;
      expect({
        name,
        readiness: c.readinessProbe?.httpGet,
        liveness: c.livenessProbe?.httpGet,
        startup: c.startupProbe?.httpGet,
        services: byKind(r, 'Service')
          .filter((s) => selectorMatches((s.spec as { selector: Record<string, string> }).selector, podTemplate(d)?.metadata?.labels))
          .map((s) => s.metadata.name),
      }).toEqual({
        name,
        readiness: { path: '/health/ready', port: 'http' },
        liveness: { path: '/health/live', port: 'http' },
        startup: { path: '/health/live', port: 'http' },
        services: [],
      });
      expect(c.resources?.requests).toEqual(expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }));
      expect(c.resources?.limits).toEqual(expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }));
    }
  });

  it('each worker Deployment is scaled by its own CPU autoscaler and has a PodDisruptionBudget of its own', () => {
    for (const d of byKind(r, 'Deployment').filter((x) => kindOfDeployment(x) === 'worker')) {
      const name = d.metadata.name;
      const hpa = hpaOf(r, name)?.spec as
        | { minReplicas: number; maxReplicas: number; metrics: Array<{ resource?: { name: string } }> }
        | undefined;
      expect({ name, cpu: hpa?.metrics.map((m) => m.resource?.name), replicas: (d.spec as { replicas?: number }).replicas }).toEqual({
        name,
        cpu: ['cpu'],
        replicas: undefined,
      });
      expect(hpa?.minReplicas).toBeGreaterThanOrEqual(1);
      expect(hpa?.maxReplicas).toBeGreaterThan(hpa?.minReplicas ?? 0);
      expect({ name, pdbs: pdbsSelecting(r, d).map((p) => p.metadata.name) }).toEqual({ name, pdbs: [name] });
    }
  });

  it('each relay Deployment has a fixed replica count (2, one in dev), no autoscaler, and a PodDisruptionBudget of its own', () => {
    for (const d of byKind(r, 'Deployment').filter((x) => kindOfDeployment(x) === 'relay')) {
      const name = d.metadata.name;
      expect({
        name,
        replicas: (d.spec as { replicas?: number }).replicas,
        hpa: hpaOf(r, name)?.metadata.name,
        pdbs: pdbsSelecting(r, d).map((p) => p.metadata.name),
      }).toEqual({ name, replicas: target === 'overlays/dev' ? 1 : 2, hpa: undefined, pdbs: [name] });
    }
  });

  it("no PodDisruptionBudget of an API Deployment also covers its worker or relay pods", () => {
    for (const d of byKind(r, 'Deployment')) {
      expect({ deployment: d.metadata.name, pdbs: pdbsSelecting(r, d).length <= 1 }).toEqual({
        deployment: d.metadata.name,
        pdbs: true,
      });
    }
  });

  it('every call-service process gets TURN_SECRET wherever TURN_URLS is configured (its settings refuse one without the other)', () => {
    const config = (find(r, 'ConfigMap', 'mate-config')?.data ?? {}) as Record<string, string>;
    const callContainers = allContainers(r.resources).filter(({ container }) => imageName(container.image ?? '').endsWith('/call-service') || imageName(container.image ?? '') === 'mate/call-service');
    expect(callContainers.length).toBeGreaterThan(0);
    for (const { resource, container } of callContainers) {
      const has = Boolean(container.env?.some((e) => e.name === 'TURN_SECRET'));
      expect({ where: idOf(resource), turnSecret: has }).toEqual({ where: idOf(resource), turnSecret: Boolean(config.TURN_URLS) });
    }
  });
});

describe('k8s overlays', () => {
  const prod = rendered.get('overlays/prod') as Rendered;
  const dev = rendered.get('overlays/dev') as Rendered;

  it('prod pins a registry image and tag for every app image (no latest, no dev)', () => {
    const problems = allContainers(prod.resources)
      .filter(({ resource }) =>
        ['gateway', 'service', 'web', 'migration'].includes(
          labelsOf(resource)['app.kubernetes.io/component'] ?? '',
        ),
      )
      .map(({ resource, container }) => ({ id: idOf(resource), image: container.image ?? '' }))
      .filter(
        ({ image }) =>
          !imageName(image).includes('/') ||
          imageName(image).startsWith('mate/') ||
          ['latest', 'dev', undefined].includes(imageTag(image)),
      );
    expect(problems).toEqual([]);
  });

  it('prod takes mate-secrets from the cluster, not from literals in git', () => {
    expect(find(prod, 'Secret', 'mate-secrets')).toBeUndefined();
    expect(prod.deleted.has('Secret/mate-secrets')).toBe(true);
    const kustomization = yaml.load(
      fs.readFileSync(rootPath('k8s/overlays/prod/kustomization.yaml'), 'utf8'),
    ) as { secretGenerator?: unknown };
    expect(kustomization.secretGenerator).toBeUndefined();
  });

  it('prod serves real hostnames over TLS', () => {
    for (const ing of byKind(prod, 'Ingress')) {
      const spec = ing.spec as { rules: Array<{ host: string }>; tls?: Array<{ hosts: string[] }> };
      const tlsHosts = (spec.tls ?? []).flatMap((t) => t.hosts);
      for (const { host } of spec.rules) {
        expect({
          ingress: ing.metadata.name,
          host,
          local: host.endsWith('.local'),
          tls: tlsHosts.includes(host),
        }).toEqual({
          ingress: ing.metadata.name,
          host,
          local: false,
          tls: true,
        });
      }
    }
  });

  it('the placeholder secret is marked as such, and dev replaces every placeholder', () => {
    const base = find(rendered.get('base') as Rendered, 'Secret', 'mate-secrets');
    const baseValues = Object.values((base?.stringData ?? {}) as Record<string, string>);
    expect(baseValues.length).toBeGreaterThan(0);
    expect(baseValues.every((v) => v.includes('REPLACE_ME'))).toBe(true);
    const devValues = Object.values(
      (find(dev, 'Secret', 'mate-secrets')?.stringData ?? {}) as Record<string, string>,
    );
    expect(devValues.filter((v) => v.includes('REPLACE_ME'))).toEqual([]);
    expect(Object.keys(find(dev, 'Secret', 'mate-secrets')?.stringData as object).sort()).toEqual(
      Object.keys(base?.stringData as object).sort(),
    );
  });

  it('TURN is optional: only overlays/turn runs coturn, with the shared secret call-service signs credentials with', () => {
    for (const target of ['base', 'overlays/dev', 'overlays/prod'])
      expect({ target, coturn: find(rendered.get(target) as Rendered, 'Deployment', 'coturn') }).toEqual({
        target,
        coturn: undefined,
      });
    const turn = rendered.get('overlays/turn') as Rendered;
    const coturn = find(turn, 'Deployment', 'coturn') as K8sResource;
    const container = mainContainer(coturn);
    expect(container.args).toEqual(
      expect.arrayContaining(['--use-auth-secret', '--static-auth-secret=${TURN_SECRET}', '--no-cli']),
    );
    expect(container.args).toEqual(expect.arrayContaining(['--denied-peer-ip=10.0.0.0-10.255.255.255']));
    const secretOf = (c: Container) => c.env?.find((e) => e.name === 'TURN_SECRET')?.valueFrom?.secretKeyRef;
    expect(secretOf(container)).toEqual({ name: 'mate-secrets', key: 'TURN_SECRET' });
    expect(secretOf(mainContainer(find(turn, 'Deployment', 'call-service') as K8sResource))).toEqual({
      name: 'mate-secrets',
      key: 'TURN_SECRET',
    });
    const config = (find(turn, 'ConfigMap', 'mate-config')?.data ?? {}) as Record<string, string>;
    expect(config.TURN_URLS).toMatch(/^turn:/);
    expect(config.STUN_URLS).toMatch(/^stun:/);
  });

  it('web push is optional: notification-service reads the VAPID key pair from mate-secrets (optional keys), never a literal', () => {
    for (const [dir, r] of rendered) {
      const deployment = find(r, 'Deployment', 'notification-service');
      const container = deployment ? mainContainer(deployment) : undefined;
      for (const key of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY']) {
        const env = container?.env?.find((e) => e.name === key);
        expect({ dir, key, env }).toEqual({ dir, key, env: { name: key, valueFrom: { secretKeyRef: { name: 'mate-secrets', key, optional: true } } } });
      }
    }
  });

  it('Redis never evicts: dev runs it with noeviction (no persistence); prod-redis persists it on a volume', () => {
    const argsOf = (r: Rendered) => {
      const w = [...byKind(r, 'Deployment'), ...byKind(r, 'StatefulSet')].find((x) => x.metadata.name === 'redis');
      return w ? mainContainer(w).args ?? [] : undefined;
    };
    const flag = (args: string[], name: string) => args[args.indexOf(name) + 1];
    const devArgs = argsOf(dev) as string[];
    expect(flag(devArgs, '--maxmemory-policy')).toBe('noeviction');
    expect(flag(devArgs, '--appendonly')).toBe('no');

    // prod itself uses a managed Redis (k8s/README.md lists the settings it must have).
    expect(argsOf(prod)).toBeUndefined();
    const withRedis = rendered.get('overlays/prod-redis') as Rendered;
    const sts = find(withRedis, 'StatefulSet', 'redis') as K8sResource;
    expect(sts).toBeDefined();
    const args = mainContainer(sts).args ?? [];
    expect({
      appendonly: flag(args, '--appendonly'),
      appendfsync: flag(args, '--appendfsync'),
      policy: flag(args, '--maxmemory-policy'),
      dir: flag(args, '--dir'),
      password: flag(args, '--requirepass'),
    }).toEqual({ appendonly: 'yes', appendfsync: 'everysec', policy: 'noeviction', dir: '/data', password: '$(REDIS_PASSWORD)' });
    // maxmemory below the memory limit: Redis refuses writes before the kernel kills it.
    const toBytes = (q: string) => {
      const m = /^(\d+)(mb|gb|Mi|Gi)$/.exec(q);
      if (!m) throw new Error(`unreadable size ${q}`);
      return Number(m[1]) * 1024 ** (['gb', 'Gi'].includes(m[2]) ? 3 : 2);
    };
    const limit = String(mainContainer(sts).resources?.limits?.memory);
    expect(toBytes(flag(args, '--maxmemory'))).toBeLessThanOrEqual(0.8 * toBytes(limit));
    const spec = sts.spec as {
      replicas: number;
      serviceName: string;
      volumeClaimTemplates: Array<{ metadata: { name: string }; spec: { resources: { requests: { storage: string } } } }>;
    };
    expect(spec.replicas).toBe(1);
    expect(find(withRedis, 'Service', spec.serviceName)).toBeDefined();
    const claim = spec.volumeClaimTemplates.find((t) => t.metadata.name === 'data');
    expect(claim?.spec.resources.requests.storage).toMatch(/Gi$/);
    const mounts = (mainContainer(sts) as Container & { volumeMounts?: Array<{ name: string; mountPath: string }> }).volumeMounts;
    expect(mounts).toEqual(expect.arrayContaining([{ name: 'data', mountPath: '/data' }]));
    const probe = mainContainer(sts).readinessProbe?.exec?.command.join(' ');
    expect(probe).toContain('redis-cli ping');
    expect(pdbsSelecting(withRedis, sts).map((p) => (p.spec as { minAvailable?: number }).minAvailable)).toEqual([1]);
    expect(mainContainer(sts).env?.find((e) => e.name === 'REDIS_PASSWORD')?.valueFrom?.secretKeyRef).toEqual({
      name: 'mate-secrets',
      key: 'REDIS_PASSWORD',
    });
  });

  it('the dev PostgreSQL creates a database for every service', () => {
    const databases = scriptDatabases(rootPath('k8s/overlays/dev/backing/create-databases.sh'));
    expect(databases).toEqual(expect.arrayContaining(apps.flatMap((a) => (a.database ? [a.database] : []))));
  });
});

/** Cross-check of the resource walk against the real kustomize, where kubectl is installed. */
const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
const describeKubectl = kubectl.status === 0 ? describe : describe.skip;
describeKubectl('k8s rendered by `kubectl kustomize` (real kustomize)', () => {
  it.each(targets)(
    '%s: the same resources, images, replicas, resources and hosts as the test renderer',
    (target, dir) => {
      const output = execFileSync('kubectl', ['kustomize', dir], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      const real = (yaml.loadAll(output) as K8sResource[]).filter(Boolean);
      const ours = (rendered.get(target) as Rendered).resources;
      const generated = new Set(
        ours.filter((x) => x.kind === 'ConfigMap' || x.kind === 'Secret').map((x) => x.metadata.name),
      );
      const unhash = (name: string) => {
        const m = /^(.*)-[a-z0-9]{10}$/.exec(name);
        return m && generated.has(m[1]) ? m[1] : name;
      };
      const summary = (list: K8sResource[]) =>
        list
          .map((x) => {
            const t = podTemplate(x);
            const spec = x.spec as
              | {
                  replicas?: number;
                  minReplicas?: number;
                  maxReplicas?: number;
                  rules?: Array<{ host: string }>;
                }
              | undefined;
            return {
              id: `${x.kind}/${unhash(x.metadata.name)}`,
              namespace: x.metadata.namespace,
              partOf: x.metadata.labels?.['app.kubernetes.io/part-of'],
              replicas: spec?.replicas,
              hpa: x.kind === 'HorizontalPodAutoscaler' ? [spec?.minReplicas, spec?.maxReplicas] : undefined,
              hosts: x.kind === 'Ingress' ? spec?.rules?.map((rule) => rule.host) : undefined,
              containers: t
                ? [...(t.spec.initContainers ?? []), ...t.spec.containers].map((c) => ({
                    name: c.name,
                    image: c.image,
                    resources: c.resources,
                    envFrom: c.envFrom?.map((e) => ({
                      cm: e.configMapRef && unhash(e.configMapRef.name),
                      secret: e.secretRef?.name,
                    })),
                  }))
                : undefined,
              podLabels: t?.metadata?.labels,
            };
          })
          .sort((a, b) => a.id.localeCompare(b.id));
      expect(JSON.parse(JSON.stringify(summary(ours)))).toEqual(JSON.parse(JSON.stringify(summary(real))));
    },
  );
});
