import fs from 'node:fs';
import path from 'node:path';
import { findKustomizationFile, idOf, K8sResource, podTemplate, render, Rendered } from './lib/kustomize';
import { internalCalls, rootPath } from './lib/workspace';

/**
 * Issue 7 item 3: the services were reachable by anything on the cluster network. Only the
 * gateway may reach a service, and only the ingress controller the gateway (ADR 0009).
 * Issue 10: safety-service → chat-service (ADR 0014) is admitted for that pair alone; issues 12
 * and 13 added auth-service's export calls and admin-service's reads, which no policy admitted
 * until issue 14 derived the callers from the services' settings.
 * Issue 14: worker and relay pods admit nobody; the optional in-cluster Redis admits Mate's pods.
 */
interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}

interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: unknown;
}

interface PolicySpec {
  podSelector: LabelSelector;
  policyTypes?: string[];
  ingress?: Array<{ from?: Peer[]; ports?: Array<{ port?: string | number; protocol?: string }> }>;
  egress?: unknown[];
}

/** Kubernetes label-selector semantics (an empty selector selects everything). */
function selects(selector: LabelSelector | undefined, labels: Record<string, string> = {}): boolean {
  if (!selector) return false;
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    switch (operator) {
      case 'In':
        return key in labels && values.includes(labels[key]);
      case 'NotIn':
        return !(key in labels) || !values.includes(labels[key]);
      case 'Exists':
        return key in labels;
      case 'DoesNotExist':
        return !(key in labels);
    }
    return false;
  });
  return byLabels && byExpressions;
}

/**
 * Service-to-service calls the policies admit besides the gateway's: callee → its callers, read
 * from the callers' settings (`<NAME>_SERVICE_URL`, the kit's ServiceClient). The calls are made by
 * the caller's API pods, on a member's or an admin's request.
 */
const INTERNAL_CALLERS = internalCalls();

/**
 * Callers whose worker pods make the call too, with the reason: safety-service's evidence worker
 * (jobs.safety-evidence) asks chat-service again for a report snapshot it could not get at first.
 */
const CALLING_WORKERS: Record<string, string[]> = {
  'chat-service': ['safety-service-worker'],
};

const K8S = rootPath('k8s');
const targets: Array<[string, string]> = [
  ['base', path.join(K8S, 'base')],
  ...fs
    .readdirSync(path.join(K8S, 'overlays'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && findKustomizationFile(path.join(K8S, 'overlays', d.name)))
    .map((d): [string, string] => [`overlays/${d.name}`, path.join(K8S, 'overlays', d.name)]),
];

const component = (w: K8sResource) => podTemplate(w)?.metadata?.labels?.['app.kubernetes.io/component'] ?? '';
const podLabels = (w: K8sResource) => podTemplate(w)?.metadata?.labels ?? {};
/** Deployments of Mate's own long-running apps (worker and relay pods included). */
const appDeployments = (r: Rendered) =>
  r.resources.filter(
    (x) => x.kind === 'Deployment' && ['gateway', 'service', 'worker', 'relay', 'web'].includes(component(x)),
  );
/**
 * Pods the policies may fence in: Mate's apps, the optional in-cluster Redis (overlays/prod-redis,
 * the Redis Cluster of overlays/distributed-data) and that overlay's PgBouncer.
 */
const FENCED = ['gateway', 'service', 'worker', 'relay', 'web', 'redis', 'pgbouncer'];
const policies = (r: Rendered) => r.resources.filter((x) => x.kind === 'NetworkPolicy');
const specOf = (p: K8sResource) => p.spec as PolicySpec;
/** The policies that restrict who may connect to this workload's pods. */
const ingressPoliciesOf = (r: Rendered, w: K8sResource) =>
  policies(r).filter((p) => (specOf(p).policyTypes ?? ['Ingress']).includes('Ingress') && selects(specOf(p).podSelector, podLabels(w)));
const peersOf = (r: Rendered, w: K8sResource) =>
  ingressPoliciesOf(r, w).flatMap((p) => (specOf(p).ingress ?? []).map((rule) => ({ policy: p.metadata.name, rule })));

describe.each(targets)('k8s %s: network policies', (_target, dir) => {
  const r = render(dir);
  const gateway = appDeployments(r).find((d) => component(d) === 'gateway');

  it('has a gateway to admit', () => {
    expect(gateway).toBeDefined();
  });

  /** The workloads the rules of the policies that select `service` admit, by name, sorted. */
  const admittedTo = (service: K8sResource) =>
    [
      ...new Set(
        peersOf(r, service).flatMap(({ rule }) =>
          (rule.from ?? []).flatMap((peer) => appDeployments(r).filter((d) => selects(peer.podSelector, podLabels(d))).map((d) => d.metadata.name)),
        ),
      ),
    ].sort();

  it('every service admits connections from the gateway and its listed internal callers alone, on its http port', () => {
    const services = appDeployments(r).filter((d) => component(d) === 'service');
    expect(services.length).toBeGreaterThan(0);
    for (const service of services) {
      const where = idOf(service);
      expect({ where, policies: ingressPoliciesOf(r, service).length > 0 }).toEqual({ where, policies: true });
      const allowed = [
        'gateway',
        ...(INTERNAL_CALLERS[service.metadata.name] ?? []),
        ...(CALLING_WORKERS[service.metadata.name] ?? []),
      ];
      for (const { policy, rule } of peersOf(r, service)) {
        // A rule without `from` admits everyone; a namespaceSelector or ipBlock admits more than named pods.
        expect({ where, policy, admitsEveryone: !rule.from?.length }).toEqual({ where, policy, admitsEveryone: false });
        for (const peer of rule.from ?? []) {
          const admitted = appDeployments(r).filter((d) => selects(peer.podSelector, podLabels(d))).map((d) => d.metadata.name);
          expect({ where, policy, namespaceSelector: peer.namespaceSelector, ipBlock: peer.ipBlock }).toEqual({
            where,
            policy,
            namespaceSelector: undefined,
            ipBlock: undefined,
          });
          // Each peer names one app (a selector matching several would admit more than meant),
          // and only workloads of it that make the call.
          const apps = new Set(
            appDeployments(r)
              .filter((d) => admitted.includes(d.metadata.name))
              .map((d) => podLabels(d)['app.kubernetes.io/name']),
          );
          expect({ where, policy, apps: apps.size, admitted: admitted.filter((a) => !allowed.includes(a)) }).toEqual({
            where,
            policy,
            apps: 1,
            admitted: [],
          });
        }
        expect({ where, policy, ports: rule.ports }).toEqual({ where, policy, ports: [{ port: 'http', protocol: 'TCP' }] });
      }
      expect({ where, admitted: admittedTo(service) }).toEqual({
        where,
        admitted: allowed.filter((name) => appDeployments(r).some((d) => d.metadata.name === name)).sort(),
      });
    }
  });

  it('admits every internal call the services are configured to make (auth-service export, admin-service reads, safety-service snapshot)', () => {
    expect(INTERNAL_CALLERS).toMatchObject({
      'chat-service': expect.arrayContaining(['auth-service', 'safety-service']),
      'profile-service': expect.arrayContaining(['admin-service', 'auth-service']),
    });
    for (const [callee, callers] of Object.entries(INTERNAL_CALLERS)) {
      const target = appDeployments(r).find((d) => d.metadata.name === callee && component(d) === 'service');
      if (!target) continue;
      const admitted = admittedTo(target);
      expect({ callee, missing: callers.filter((c) => !admitted.includes(c)) }).toEqual({ callee, missing: [] });
    }
  });

  it('worker and relay pods admit no connection at all', () => {
    const background = appDeployments(r).filter((d) => ['worker', 'relay'].includes(component(d)));
    expect(background.length).toBeGreaterThan(0);
    for (const w of background) {
      const where = idOf(w);
      expect({ where, fenced: ingressPoliciesOf(r, w).length > 0, rules: peersOf(r, w) }).toEqual({
        where,
        fenced: true,
        rules: [],
      });
    }
  });

  it('admits safety-service to chat-service (its report snapshot call) and to no other service', () => {
    const byName = (name: string) => appDeployments(r).find((d) => d.metadata.name === name);
    const chat = byName('chat-service');
    expect(chat).toBeDefined();
    expect(admittedTo(chat as K8sResource)).toContain('safety-service');
    for (const service of appDeployments(r).filter((d) => component(d) === 'service' && d.metadata.name !== 'chat-service')) {
      expect({ service: service.metadata.name, admitsSafety: admittedTo(service).includes('safety-service') }).toEqual({
        service: service.metadata.name,
        admitsSafety: false,
      });
    }
  });

  it('the gateway and the web apps admit connections from the ingress controller namespace alone', () => {
    for (const edge of appDeployments(r).filter((d) => ['gateway', 'web'].includes(component(d)))) {
      const where = idOf(edge);
      expect({ where, policies: ingressPoliciesOf(r, edge).length > 0 }).toEqual({ where, policies: true });
      for (const { policy, rule } of peersOf(r, edge)) {
        expect({ where, policy, admitsEveryone: !rule.from?.length }).toEqual({ where, policy, admitsEveryone: false });
        for (const peer of rule.from ?? []) {
          expect({ where, policy, podSelector: peer.podSelector, ipBlock: peer.ipBlock }).toEqual({
            where,
            policy,
            podSelector: undefined,
            ipBlock: undefined,
          });
          expect({ where, policy, namespace: peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] }).toEqual({
            where,
            policy,
            namespace: expect.stringMatching(/\S/),
          });
        }
      }
    }
  });

  it("restricts no pod's egress (PostgreSQL, Redis, SMTP and S3 stay reachable) and every policy selects a pod", () => {
    for (const p of policies(r)) {
      expect({ policy: p.metadata.name, types: specOf(p).policyTypes }).toEqual({ policy: p.metadata.name, types: ['Ingress'] });
      const selected = r.resources.filter((w) => podTemplate(w) && selects(specOf(p).podSelector, podLabels(w)));
      expect({ policy: p.metadata.name, selects: selected.length > 0 }).toEqual({ policy: p.metadata.name, selects: true });
      // Migration Jobs and dev's backing services (PostgreSQL, Redis, maildev) are not fenced in.
      expect(selected.filter((w) => !FENCED.includes(component(w))).map(idOf)).toEqual([]);
    }
  });
});

describe('k8s overlays/prod-redis: the in-cluster Redis', () => {
  const r = render(path.join(K8S, 'overlays/prod-redis'));
  const redis = r.resources.find((x) => x.kind === 'StatefulSet' && x.metadata.name === 'redis') as K8sResource;

  it("admits Mate's gateway, services, workers, relays and migrations on the redis port, nothing else", () => {
    expect(redis).toBeDefined();
    const rules = peersOf(r, redis);
    expect(rules.length).toBeGreaterThan(0);
    const workloads = r.resources.filter((w) => podTemplate(w) && w !== redis);
    const admitted = new Set<string>();
    for (const { policy, rule } of rules) {
      expect({ policy, ports: rule.ports }).toEqual({ policy, ports: [{ port: 'redis', protocol: 'TCP' }] });
      for (const peer of rule.from ?? []) {
        expect({ policy, namespaceSelector: peer.namespaceSelector, ipBlock: peer.ipBlock }).toEqual({
          policy,
          namespaceSelector: undefined,
          ipBlock: undefined,
        });
        workloads.filter((w) => selects(peer.podSelector, podLabels(w))).forEach((w) => admitted.add(component(w)));
      }
    }
    expect([...admitted].sort()).toEqual(['gateway', 'migration', 'relay', 'service', 'worker']);
    // Every workload that is given REDIS_URL is admitted; the web apps are not.
    const usesRedis = workloads.filter((w) =>
      podTemplate(w)?.spec.containers.some((c) => c.env?.some((e) => e.name === 'REDIS_URL')),
    );
    expect(usesRedis.filter((w) => !admitted.has(component(w))).map(idOf)).toEqual([]);
    expect(workloads.filter((w) => component(w) === 'web' && admitted.has('web'))).toEqual([]);
  });
});

describe('k8s overlays/distributed-data: the Redis Cluster and PgBouncer', () => {
  const r = render(path.join(K8S, 'overlays/distributed-data'));
  const workload = (kind: string, name: string) =>
    r.resources.find((x) => x.kind === kind && x.metadata.name === name) as K8sResource;
  const usesEnv = (w: K8sResource, name: string) =>
    Boolean(podTemplate(w)?.spec.containers.some((c) => c.env?.some((e) => e.name === name)));
  /** The components each port of `target` admits, from pods of the namespace only. */
  const admittedByPort = (target: K8sResource) => {
    const byPort: Record<string, string[]> = {};
    for (const { policy, rule } of peersOf(r, target)) {
      for (const peer of rule.from ?? []) {
        expect({ policy, namespaceSelector: peer.namespaceSelector, ipBlock: peer.ipBlock }).toEqual({
          policy,
          namespaceSelector: undefined,
          ipBlock: undefined,
        });
        const components = r.resources.filter((w) => podTemplate(w) && selects(peer.podSelector, podLabels(w))).map(component);
        for (const port of rule.ports ?? []) {
          byPort[String(port.port)] = [...new Set([...(byPort[String(port.port)] ?? []), ...components])].sort();
        }
      }
    }
    return byPort;
  };

  it("the Redis nodes admit Mate's processes and the create Job on the redis port, and only each other on the cluster bus", () => {
    const redis = workload('StatefulSet', 'redis-cluster');
    expect(admittedByPort(redis)).toEqual({
      redis: ['gateway', 'migration', 'redis', 'redis-setup', 'relay', 'service', 'worker'],
      'cluster-bus': ['redis'],
    });
    const admitted = admittedByPort(redis).redis;
    const usesRedis = r.resources.filter((w) => podTemplate(w) && usesEnv(w, 'REDIS_URL'));
    expect(usesRedis.filter((w) => !admitted.includes(component(w))).map(idOf)).toEqual([]);
  });

  it("PgBouncer admits the services' API, worker and relay pods alone: every pod whose DATABASE_URL is pooled", () => {
    const pgbouncer = workload('Deployment', 'pgbouncer');
    expect(admittedByPort(pgbouncer)).toEqual({ pgbouncer: ['relay', 'service', 'worker'] });
    const pooled = r.resources.filter((w) => podTemplate(w) && usesEnv(w, 'DATABASE_POOLING'));
    expect(pooled.length).toBeGreaterThan(0);
    expect(pooled.filter((w) => !['relay', 'service', 'worker'].includes(component(w))).map(idOf)).toEqual([]);
  });
});

describe('the label-selector check itself', () => {
  it('follows Kubernetes semantics', () => {
    const labels = { 'app.kubernetes.io/component': 'service', app: 'a' };
    expect(selects({ matchLabels: { app: 'a' } }, labels)).toBe(true);
    expect(selects({ matchLabels: { app: 'b' } }, labels)).toBe(false);
    expect(selects({ matchExpressions: [{ key: 'app.kubernetes.io/component', operator: 'In', values: ['gateway', 'service'] }] }, labels)).toBe(true);
    expect(selects({ matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['a'] }] }, labels)).toBe(false);
    expect(selects({ matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, labels)).toBe(true);
    expect(selects({}, labels)).toBe(true);
    expect(selects(undefined, labels)).toBe(false);
  });
});
