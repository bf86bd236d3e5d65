import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { FsTree, flushChanges } from 'nx/src/generators/tree';
import { REGISTRY_FILE, serviceGenerator } from '../generator';

/** Repository root (this file is tools/generators/src/service/__tests__/). */
const ROOT = path.resolve(__dirname, '../../../../..');
/** What a generated service needs to type-check, lint and run its test, copied (not linked) where the generator writes. */
const COPIED = [
  ...['tsconfig.base.json', 'jest.preset.js', '.swcrc', '.prettierrc', 'eslint.config.mjs', 'nx.json', 'package.json', 'package-lock.json', '.gitignore'],
  ...['apps', 'libs', 'docker', 'k8s', 'tools/scripts', 'tools/web-server', 'tools/infra-tests'],
];

interface Entry {
  name: string;
  port: number;
  status: string;
  database: string;
  routes: string[];
  urlVariable: string;
}

function run(scratch: string, bin: string, args: string[]) {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', bin), ...args], {
    cwd: scratch,
    encoding: 'utf8',
    // Plain output whatever the caller's terminal (Nx forces colours on its tasks).
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', FORCE_COLOR: '0' },
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

/** tools/infra-tests' specs that check the workspace's files against the registry (a Jest path pattern each). */
const AGREEMENT_SPECS = ['compose', 'docker', 'k8s', 'kustomize', 'network-policies', 'registry', 'schemas', 'secrets'].map(
  (spec) => `tools/infra-tests/src/${spec}\\.spec\\.ts$`,
);

/** A service the copy's registry plans before the generator runs (port and prefixes of its own). */
const PLANNED = { name: 'ledger-service', port: 3190, database: 'ledger', routes: ['/api/ledger'], adminRoutes: ['/api/ledger-admin'] };

describe('nx g @mate/tools:service (into a scratch copy of the workspace)', () => {
  let scratch: string;
  const read = (file: string) => fs.readFileSync(path.join(scratch, file), 'utf8');
  const registry = () => (JSON.parse(read(REGISTRY_FILE)) as { services: Entry[] }).services;

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mate-generator-'));
    for (const entry of COPIED) {
      fs.cpSync(path.join(ROOT, entry), path.join(scratch, entry), {
        recursive: true,
        filter: (source) => !/[/\\](node_modules|dist|\.nx)$/.test(source),
      });
    }
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
    // Every service of ARCHITECTURE §1 is deployed now: the copy plans one more, as the registry
    // planned admin-service until issue 13, to show a planned entry keeps its port and prefixes.
    const file = path.join(scratch, REGISTRY_FILE);
    const planned = JSON.parse(fs.readFileSync(file, 'utf8')) as { services: unknown[] };
    planned.services.push({ ...PLANNED, status: 'planned', worker: true, queues: [], publicRoutes: [], urlVariable: 'LEDGER_SERVICE_URL' });
    fs.writeFileSync(file, JSON.stringify(planned, null, 2));
    const tree = new FsTree(scratch, false);
    await serviceGenerator(tree, { name: 'demo' });
    await serviceGenerator(tree, { name: 'ledger-service' });
    flushChanges(scratch, tree.listChanges());
  });

  afterAll(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('registers a new service after the others, and deploys a planned one on its planned port and prefix', () => {
    const demo = registry().find((s) => s.name === 'demo-service');
    const highest = Math.max(...registry().filter((s) => s.name !== 'demo-service').map((s) => s.port));
    expect(demo).toMatchObject({ port: highest + 1, status: 'deployed', database: 'demo', routes: ['/api/demo'], urlVariable: 'DEMO_SERVICE_URL' });
    expect(registry().find((s) => s.name === PLANNED.name)).toMatchObject({ ...PLANNED, status: 'deployed' });
    expect(registry().filter((s) => s.name === PLANNED.name)).toHaveLength(1);
    const catalogue = read('libs/contracts/src/lib/events.ts');
    expect(catalogue).toContain("demo: 'demo-service',");
    expect(catalogue.match(/'admin-service'/g)).toHaveLength(1);
    expect(catalogue).toContain("ledger: 'ledger-service',");
  });

  it('gives it a compose service, a one-shot migration, a database and the gateway’s dependency', () => {
    const compose = yaml.load(read('docker/compose.yml')) as {
      services: Record<string, { environment?: Record<string, string>; depends_on?: Record<string, unknown>; command?: string[] }>;
    };
    const port = String(registry().find((s) => s.name === 'demo-service')?.port);
    expect(compose.services['demo-service'].environment).toMatchObject({ PORT: port, DATABASE_URL: expect.stringMatching(/\/mate_demo$/) });
    expect(compose.services['demo-service-migrate'].command).toEqual(['migrate']);
    expect(Object.keys(compose.services.gateway.depends_on ?? {})).toEqual(expect.arrayContaining(['demo-service', 'ledger-service']));
    expect(compose.services.gateway.environment).toMatchObject({ DEMO_SERVICE_URL: `http://demo-service:${port}` });
    expect(read('docker/postgres/create-databases.sh')).toMatch(/mate_notification mate_demo mate_ledger\}/);
    expect(read('k8s/overlays/dev/backing/create-databases.sh')).toMatch(/mate_notification mate_demo mate_ledger\}/);
  });

  it('gives it k8s manifests, listed in the base, with its database secret and its image in both overlays', () => {
    const kinds = fs
      .readdirSync(path.join(scratch, 'k8s/base/demo-service'))
      .flatMap((file) => yaml.loadAll(read(`k8s/base/demo-service/${file}`)) as { kind: string; metadata?: { name: string } }[]);
    // The API, its workers and its outbox relay (k8s/README.md, "Workers and relays").
    expect(kinds.map((d) => d.kind).sort()).toEqual([
      ...Array(3).fill('Deployment'),
      ...Array(2).fill('HorizontalPodAutoscaler'),
      'Job',
      'Kustomization',
      ...Array(3).fill('PodDisruptionBudget'),
      'Service',
    ]);
    expect(kinds.filter((d) => d.kind === 'Deployment').map((d) => d.metadata?.name).sort()).toEqual([
      'demo-service',
      'demo-service-relay',
      'demo-service-worker',
    ]);
    expect((yaml.load(read('k8s/base/kustomization.yaml')) as { resources: string[] }).resources).toEqual(
      expect.arrayContaining(['demo-service', 'ledger-service']),
    );
    expect(read('k8s/base/common/secret.yaml')).toContain('demo-service.DATABASE_URL:');
    expect(read('k8s/base/common/kustomization.yaml')).toContain('- DEMO_SERVICE_URL=http://demo-service:');
    expect(read('k8s/overlays/dev/kustomization.yaml')).toContain('- demo-service.DATABASE_URL=postgres://mate:mate@postgres:5432/mate_demo');
    expect(read('k8s/overlays/dev/kustomization.yaml')).toContain('{ name: mate/demo-service, newTag: dev }');
    expect(read('k8s/overlays/prod/kustomization.yaml')).toContain('newName: registry.example.com/mate/demo-service');
  });

  it('creates a service that type-checks, lints and passes its own integration test against real PostgreSQL', () => {
    const tsc = run(scratch, 'typescript/bin/tsc', ['-p', 'apps/demo-service/tsconfig.spec.json', '--noEmit']);
    expect({ tsc: tsc.status, output: tsc.output.trim() }).toEqual({ tsc: 0, output: '' });
    const lint = run(scratch, 'eslint/bin/eslint.js', ['apps/demo-service', '--max-warnings', '0', '--rule', '@nx/enforce-module-boundaries: off']);
    expect({ lint: lint.status, output: lint.status ? lint.output : '' }).toEqual({ lint: 0, output: '' });
    const jest = run(scratch, 'jest/bin/jest.js', ['-c', 'apps/demo-service/jest.config.cjs', '--ci']);
    expect({ jest: jest.status, output: jest.status ? jest.output : '' }).toEqual({ jest: 0, output: '' });
    expect(jest.output).toMatch(/Tests:\s+3 passed, 3 total/);
  });

  it('leaves compose, k8s and the launcher in agreement with the registry (tools/infra-tests on the copy)', () => {
    // The specs that read the registry, compose, the Dockerfile and the manifests. Not those that
    // start a fixed service or script (gdpr verify, chat-service's k8s roles, the web server, the
    // VAPID keys, prune-deps): they pass or fail alike on the copy, and tools/infra-tests runs them.
    const infra = run(scratch, 'jest/bin/jest.js', ['-c', 'tools/infra-tests/jest.config.cjs', '--ci', ...AGREEMENT_SPECS]);
    const suites = /Test Suites: (\d+) passed, \1 total/.exec(infra.output)?.[1];
    expect({ infra: infra.status, output: infra.status ? infra.output : '', suites }).toEqual({
      infra: 0,
      output: '',
      suites: `${AGREEMENT_SPECS.length}`,
    });
  });

  it('refuses a service that exists, a bad name, a taken port or route', async () => {
    const tree = new FsTree(scratch, false);
    await expect(serviceGenerator(tree, { name: 'demo-service' })).rejects.toThrow(/exists already/);
    await expect(serviceGenerator(tree, { name: 'Bad_Name' })).rejects.toThrow(/not a service name/);
    await expect(serviceGenerator(tree, { name: 'other', port: 3101 })).rejects.toThrow(/port 3101 belongs to auth-service/);
    await expect(serviceGenerator(tree, { name: 'other', route: '/api/auth' })).rejects.toThrow(/belongs to auth-service/);
  });
});
