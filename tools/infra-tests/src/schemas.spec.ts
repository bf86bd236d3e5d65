import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findKustomizationFile, K8sResource, render } from './lib/kustomize';
import { rootPath } from './lib/workspace';

/**
 * Issue 14: every object the overlays render is checked against the Kubernetes schemas, offline.
 * The validator is tools/infra-tests/validate-k8s.mjs over the npm package kubernetes-models
 * (ESM-only, so it runs as a child process); the objects come from the repository's own renderer
 * (lib/kustomize.ts), as in the other k8s suites. docs/adr/0019-kubernetes-at-scale.md.
 */
const VALIDATOR = rootPath('tools/infra-tests/validate-k8s.mjs');

/**
 * Kinds without a schema in kubernetes-models (custom resources) that the manifests may use, as
 * `<apiVersion>/<Kind>` with the reason. Empty: Mate renders only built-in kinds today.
 */
const ALLOWED_WITHOUT_SCHEMA: Record<string, string> = {};

interface Problem {
  source: string;
  apiVersion: string;
  kind: string;
  name: string;
  errors?: string[];
}

interface Report {
  checked: number;
  invalid: Problem[];
  unknown: Problem[];
}

function validate(entries: Array<{ source: string; object: unknown }>): Report {
  const run = spawnSync(process.execPath, [VALIDATOR, '--json'], {
    input: JSON.stringify(entries),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`validate-k8s.mjs exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Report;
}

const describeProblem = (p: Problem) =>
  `${p.kind}/${p.name} (${p.apiVersion}) in ${p.source}${p.errors ? `: ${p.errors.join('; ')}` : ''}`;

const K8S = rootPath('k8s');
const targets: Array<[string, string]> = [
  ['base', path.join(K8S, 'base')],
  ...fs
    .readdirSync(path.join(K8S, 'overlays'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && findKustomizationFile(path.join(K8S, 'overlays', d.name)))
    .map((d): [string, string] => [`overlays/${d.name}`, path.join(K8S, 'overlays', d.name)]),
];

describe('k8s schemas: every rendered object against the Kubernetes OpenAPI schemas (offline)', () => {
  const entries = targets.flatMap(([target, dir]) =>
    render(dir).resources.map((object) => ({ source: target, object })),
  );
  const report = validate(entries);

  it('renders base, dev, prod and the optional overlays', () => {
    expect(targets.map(([t]) => t)).toEqual(
      expect.arrayContaining(['base', 'overlays/dev', 'overlays/prod', 'overlays/turn', 'overlays/prod-redis', 'overlays/distributed-data']),
    );
    expect(report.checked).toBe(entries.length);
    expect(report.checked).toBeGreaterThan(100);
  });

  it('every object is valid for its apiVersion and kind', () => {
    expect(report.invalid.map(describeProblem)).toEqual([]);
  });

  it('every kind has a schema, or is allow-listed with a reason', () => {
    const unexplained = report.unknown.filter((u) => !ALLOWED_WITHOUT_SCHEMA[`${u.apiVersion}/${u.kind}`]);
    expect(unexplained.map(describeProblem)).toEqual([]);
    const used = new Set(report.unknown.map((u) => `${u.apiVersion}/${u.kind}`));
    expect(Object.keys(ALLOWED_WITHOUT_SCHEMA).filter((k) => !used.has(k))).toEqual([]);
  });
});

describe('the schema check rejects what the API server would', () => {
  const deployment = (name: string, spec: Record<string, unknown>): K8sResource => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'mate/x:1' }] } },
      ...spec,
    },
  });
  const container = (extra: Record<string, unknown>) => ({
    template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'app', image: 'mate/x:1', ...extra }] } },
  });
  const fixtures: Array<{ source: string; object: unknown }> = [
    { source: 'fixture', object: deployment('valid', {}) },
    { source: 'fixture', object: deployment('replicas-two', { replicas: 'two' }) },
    { source: 'fixture', object: deployment('no-selector', { selector: undefined }) },
    { source: 'fixture', object: deployment('no-containers', { template: { spec: {} } }) },
    { source: 'fixture', object: deployment('bad-quantity', container({ resources: { limits: { cpu: 'lots' } } })) },
    { source: 'fixture', object: deployment('port-as-text', container({ ports: [{ containerPort: 'http' }] })) },
    {
      source: 'fixture',
      object: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'no-port' }, spec: { ports: [{ name: 'http' }] } },
    },
    {
      source: 'fixture',
      object: { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'no-target' }, spec: { maxReplicas: 3 } },
    },
    { source: 'fixture', object: { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'crd' }, spec: {} } },
    { source: 'fixture', object: { apiVersion: 'apps/v1', kind: 'Deploymnt', metadata: { name: 'typo-kind' }, spec: {} } },
    { source: 'fixture', object: deployment('typo-field', { replica: 2 }) },
  ];
  const report = validate(fixtures);
  const invalid = (name: string) => report.invalid.find((p) => p.name === name);

  it('accepts a valid object', () => {
    expect(invalid('valid')).toBeUndefined();
  });

  it.each([
    ['replicas-two', '/spec/replicas must be integer'],
    ['no-selector', '/spec must have required property selector'],
    ['no-containers', '/spec/template/spec must have required property containers'],
    ['bad-quantity', '/spec/template/spec/containers/0/resources/limits/cpu must match format "quantity"'],
    ['port-as-text', '/spec/template/spec/containers/0/ports/0/containerPort must be integer'],
    ['no-port', '/spec/ports/0 must have required property port'],
    ['no-target', '/spec must have required property scaleTargetRef'],
  ])('rejects %s, naming the object, its source and the field', (name, error) => {
    const p = invalid(name);
    expect(p && describeProblem(p)).toContain(`/${name} (`);
    expect(p && describeProblem(p)).toContain('in fixture');
    expect(p?.errors?.join('; ')).toContain(error);
  });

  it('reports a kind it has no schema for (a custom resource, a misspelt kind) instead of passing it', () => {
    expect(report.unknown.map((u) => `${u.apiVersion}/${u.kind}/${u.name}`).sort()).toEqual([
      'apps/v1/Deploymnt/typo-kind',
      'cert-manager.io/v1/Certificate/crd',
    ]);
  });

  it('does not catch a misspelt field name: the schemas are open (the API server refuses it on apply)', () => {
    expect(invalid('typo-field')).toBeUndefined();
  });

  it('the command line fails on an invalid object and names it', () => {
    const input = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: { name: fine }',
      '---',
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: { name: broken }',
      'spec: { replicas: two, selector: {}, template: { spec: { containers: [{ name: a, image: b }] } } }',
      '',
    ].join('\n');
    const run = spawnSync(process.execPath, [VALIDATOR], { input, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('invalid: Deployment/broken (apps/v1) in stdin: /spec/replicas must be integer');
    expect(run.stdout).toContain('2 objects checked, 1 invalid, 0 without a schema');
    const ok = spawnSync(process.execPath, [VALIDATOR], { input: input.split('---')[0], encoding: 'utf8' });
    expect({ status: ok.status, stderr: ok.stderr }).toEqual({ status: 0, stderr: '' });
  });
});
