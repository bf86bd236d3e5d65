import fs from 'node:fs';
import path from 'node:path';
import { findKustomizationFile, idOf, K8sResource, podTemplate, render, Rendered } from './lib/kustomize';
import { rootPath } from './lib/workspace';

/**
 * Issue 7 item 3: the services were reachable by anything on the cluster network. Only the
 * gateway may reach a service, and only the ingress controller the gateway (ADR 0009).
 * Issue 10: the one service-to-service call, safety-service → chat-service (ADR 0014), is admitted
 * for that pair alone.
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
 * Service-to-service calls the policies admit besides the gateway's: callee → its callers
 * (ADR 0014: safety-service reads chat-service's internal message snapshot for reports).
 */
const INTERNAL_CALLERS: Record<string, string[]> = {
  'chat-service': ['safety-service'],
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
/** Deployments of Mate's own long-running apps. */
const appDeployments = (r: Rendered) =>
  r.resources.filter((x) => x.kind === 'Deployment' && ['gateway', 'service', 'web'].includes(component(x)));
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
      const allowed = ['gateway', ...(INTERNAL_CALLERS[service.metadata.name] ?? [])];
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
          // Each rule names one workload (a selector matching several would admit more than meant).
          expect({ where, policy, admitted: admitted.length === 1 && allowed.includes(admitted[0]) }).toEqual({ where, policy, admitted: true });
        }
        expect({ where, policy, ports: rule.ports }).toEqual({ where, policy, ports: [{ port: 'http', protocol: 'TCP' }] });
      }
      expect({ where, admitted: admittedTo(service) }).toEqual({
        where,
        admitted: allowed.filter((name) => appDeployments(r).some((d) => d.metadata.name === name)).sort(),
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
      expect(selected.filter((w) => !['gateway', 'service', 'web'].includes(component(w))).map(idOf)).toEqual([]);
    }
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
