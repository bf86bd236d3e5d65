import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  applyJsonPatch,
  imageName,
  imageTag,
  JsonObject,
  KustomizeError,
  matchesSelector,
  podTemplate,
  render,
  strategicMerge,
} from './lib/kustomize';

/** Writes a tree of files ({ 'a/b.yaml': '...' }) into a fresh folder. */
function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kustomize-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const deployment = (name: string, labels = 'app.kubernetes.io/component: service') => `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels: { ${labels} }
spec:
  selector: { matchLabels: { app: ${name} } }
  template:
    metadata: { labels: { app: ${name} } }
    spec:
      containers:
        - name: app
          image: mate/${name}
          env: [{ name: A, value: "1" }]
`;

const KUSTOMIZATION = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';

describe('the test renderer (a strict subset of kustomize)', () => {
  const dirs: string[] = [];
  const make = (files: Record<string, string>) => {
    const d = tree(files);
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('walks resources through nested folders and multi-document files, then applies overlay transformers', () => {
    const root = make({
      'base/kustomization.yaml': `${KUSTOMIZATION}resources: [a, two.yaml]\nconfigMapGenerator:\n  - name: cfg\n    literals: [X=1]\n`,
      'base/a/kustomization.yaml': `${KUSTOMIZATION}resources: [deployment.yaml]\n`,
      'base/a/deployment.yaml': deployment('a'),
      'base/two.yaml': `${deployment('b', 'app.kubernetes.io/component: web')}\n---\napiVersion: v1\nkind: Service\nmetadata: { name: b }\nspec: { selector: { app: b }, ports: [{ port: 80 }] }\n`,
      'overlay/kustomization.yaml': `${KUSTOMIZATION}namespace: ns
resources: [../base]
labels:
  - pairs: { team: mate }
    includeTemplates: true
images:
  - { name: mate/a, newName: reg.example/mate/a, newTag: "1.2" }
replicas:
  - { name: b, count: 3 }
configMapGenerator:
  - name: cfg
    behavior: merge
    literals: [Y=2]
patches:
  - target: { kind: Deployment, labelSelector: "app.kubernetes.io/component in (service)" }
    patch: |-
      apiVersion: apps/v1
      kind: Deployment
      metadata: { name: placeholder }
      spec:
        template:
          spec:
            containers:
              - name: app
                env: [{ name: B, value: "2" }]
  - target: { kind: Service, name: b }
    patch: |-
      - { op: test, path: /spec/ports/0/port, value: 80 }
      - { op: replace, path: /spec/ports/0/port, value: 8080 }
`,
    });
    const out = render(path.join(root, 'overlay'));
    expect(out.resources.map((r) => `${r.kind}/${r.metadata.name}`).sort()).toEqual([
      'ConfigMap/cfg',
      'Deployment/a',
      'Deployment/b',
      'Service/b',
    ]);
    expect(
      out.resources.every((r) => r.metadata.namespace === 'ns' && r.metadata.labels?.team === 'mate'),
    ).toBe(true);
    const a = out.resources.find((r) => r.metadata.name === 'a' && r.kind === 'Deployment');
    const container = podTemplate(a as never)?.spec.containers[0];
    expect(container?.image).toBe('reg.example/mate/a:1.2');
    expect(container?.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ]);
    expect(podTemplate(a as never)?.metadata?.labels).toEqual({ app: 'a', team: 'mate' });
    const b = out.resources.find((r) => r.metadata.name === 'b' && r.kind === 'Deployment');
    expect((b?.spec as { replicas: number }).replicas).toBe(3);
    expect(podTemplate(b as never)?.spec.containers[0].env).toEqual([{ name: 'A', value: '1' }]);
    expect(
      (out.resources.find((r) => r.kind === 'Service')?.spec as { ports: Array<{ port: number }> }).ports[0]
        .port,
    ).toBe(8080);
    expect(out.resources.find((r) => r.kind === 'ConfigMap')?.data).toEqual({ X: '1', Y: '2' });
    expect([...out.files].map((f) => path.relative(root, f)).sort()).toEqual([
      'base/a/deployment.yaml',
      'base/a/kustomization.yaml',
      'base/kustomization.yaml',
      'base/two.yaml',
      'overlay/kustomization.yaml',
    ]);
  });

  it('records resources removed by $patch: delete', () => {
    const root = make({
      'kustomization.yaml': `${KUSTOMIZATION}resources: [s.yaml]\npatches:\n  - path: del.yaml\n`,
      's.yaml': 'apiVersion: v1\nkind: Secret\nmetadata: { name: s }\nstringData: { K: v }\n',
      'del.yaml': '$patch: delete\napiVersion: v1\nkind: Secret\nmetadata: { name: s }\n',
    });
    const out = render(root);
    expect(out.resources).toEqual([]);
    expect([...out.deleted]).toEqual(['Secret/s']);
  });

  it.each([
    [
      'an unknown field',
      {
        'kustomization.yaml': `${KUSTOMIZATION}resources: [d.yaml]\nnamePrefix: x-\n`,
        'd.yaml': deployment('a'),
      },
      /namePrefix.*not supported/,
    ],
    [
      'a missing resource',
      { 'kustomization.yaml': `${KUSTOMIZATION}resources: [nope.yaml]\n` },
      /does not exist/,
    ],
    [
      'a remote resource',
      { 'kustomization.yaml': `${KUSTOMIZATION}resources: [https://github.com/x/y]\n` },
      /remote/,
    ],
    [
      'a duplicate resource',
      {
        'kustomization.yaml': `${KUSTOMIZATION}resources: [d.yaml, e.yaml]\n`,
        'd.yaml': deployment('a'),
        'e.yaml': deployment('a'),
      },
      /twice/,
    ],
    [
      'a patch that matches nothing',
      {
        'kustomization.yaml': `${KUSTOMIZATION}resources: [d.yaml]\npatches:\n  - target: { kind: Deployment, name: zzz }\n    patch: '[{"op":"remove","path":"/spec"}]'\n`,
        'd.yaml': deployment('a'),
      },
      /matches no resource/,
    ],
    [
      'a failing JSON patch test',
      {
        'kustomization.yaml': `${KUSTOMIZATION}resources: [d.yaml]\npatches:\n  - target: { kind: Deployment }\n    patch: '[{"op":"test","path":"/metadata/name","value":"b"}]'\n`,
        'd.yaml': deployment('a'),
      },
      /test failed/,
    ],
    [
      'an image entry that matches nothing',
      {
        'kustomization.yaml': `${KUSTOMIZATION}resources: [d.yaml]\nimages: [{ name: mate/zzz, newTag: "1" }]\n`,
        'd.yaml': deployment('a'),
      },
      /matches no container/,
    ],
    [
      'a replicas entry that matches nothing',
      {
        'kustomization.yaml': `${KUSTOMIZATION}resources: [d.yaml]\nreplicas: [{ name: zzz, count: 1 }]\n`,
        'd.yaml': deployment('a'),
      },
      /matches no workload/,
    ],
    [
      'a generator file outside the folder',
      {
        'k/kustomization.yaml': `${KUSTOMIZATION}configMapGenerator:\n  - name: c\n    files: [../x.sh]\n`,
        'x.sh': 'echo',
      },
      /outside/,
    ],
    [
      'a merge into a missing ConfigMap',
      {
        'kustomization.yaml': `${KUSTOMIZATION}configMapGenerator:\n  - name: c\n    behavior: merge\n    literals: [A=1]\n`,
      },
      /does not exist/,
    ],
  ])('refuses %s', (_what, files, message) => {
    const root = make(files as Record<string, string>);
    const dir = fs.existsSync(path.join(root, 'k')) ? path.join(root, 'k') : root;
    expect(() => render(dir)).toThrow(KustomizeError);
    expect(() => render(dir)).toThrow(message);
  });

  it('merges lists by their Kubernetes merge keys and replaces other lists', () => {
    const target = {
      containers: [{ name: 'app', image: 'x', ports: [{ containerPort: 1, name: 'a' }] }],
      args: ['a', 'b'],
      keep: 1,
      drop: 2,
    } as unknown as JsonObject;
    strategicMerge(target, {
      containers: [
        { name: 'app', ports: [{ containerPort: 1, name: 'b' }] },
        { name: 'side', image: 'y' },
      ],
      args: ['c'],
      drop: null,
    });
    expect(target).toEqual({
      containers: [
        { name: 'app', image: 'x', ports: [{ containerPort: 1, name: 'b' }] },
        { name: 'side', image: 'y' },
      ],
      args: ['c'],
      keep: 1,
    });
  });

  it('applies JSON patches (add to lists, remove, test)', () => {
    const doc = { spec: { rules: [{ host: 'a' }] } } as unknown as JsonObject;
    applyJsonPatch(doc, [
      { op: 'test', path: '/spec/rules/0/host', value: 'a' },
      { op: 'add', path: '/spec/rules/-', value: { host: 'b' } },
      { op: 'add', path: '/spec/tls', value: [] },
      { op: 'remove', path: '/spec/rules/0' },
    ]);
    expect(doc).toEqual({ spec: { rules: [{ host: 'b' }], tls: [] } });
    expect(() => applyJsonPatch(doc, [{ op: 'replace', path: '/spec/nope/x', value: 1 }])).toThrow(
      /does not exist/,
    );
  });

  it('understands label selectors', () => {
    const labels = { tier: 'service', app: 'a' };
    expect(matchesSelector('tier=service', labels)).toBe(true);
    expect(matchesSelector('tier==service,app!=b', labels)).toBe(true);
    expect(matchesSelector('tier in (gateway,service)', labels)).toBe(true);
    expect(matchesSelector('tier notin (gateway, service)', labels)).toBe(false);
    expect(matchesSelector('app,!missing', labels)).toBe(true);
    expect(matchesSelector('missing', labels)).toBe(false);
  });

  it('splits image references', () => {
    expect(imageName('registry:5000/mate/web:1.2')).toBe('registry:5000/mate/web');
    expect(imageTag('registry:5000/mate/web:1.2')).toBe('1.2');
    expect(imageName('mate/web')).toBe('mate/web');
    expect(imageTag('mate/web')).toBeUndefined();
    expect(imageTag('mate/web@sha256:abc')).toBe('@sha256:abc');
  });
});
