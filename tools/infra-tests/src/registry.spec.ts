import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DEPLOYED_SERVICES, SERVICE_REGISTRY, serviceDatabaseName } from '@mate/contracts';
import { discoverApps, loadYaml, loadYamlDocuments, rootPath, scriptDatabases, walkFiles } from './lib/workspace';

/**
 * The service registry (libs/contracts/src/lib/service-registry.json) is the one list of services: the
 * launcher and the gateway derive from it; compose and k8s are files, so these tests hold them to it.
 */
interface ComposeService {
  build?: { args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
}

const compose = loadYaml(rootPath('docker/compose.yml')) as { services: Record<string, ComposeService> };
const withDatabase = SERVICE_REGISTRY.filter((s) => s.database);
const deployedWithDatabase = DEPLOYED_SERVICES.filter((s) => s.database);

describe('the service registry and the workspace', () => {
  it('has an app in apps/ for exactly the deployed services', () => {
    const serviceApps = discoverApps()
      .filter((a) => a.kind === 'service')
      .map((a) => a.name);
    expect(serviceApps.sort()).toEqual(DEPLOYED_SERVICES.map((s) => s.name).sort());
  });

  it('is what the launcher starts (npm start, npm run migrate and the e2e runner share tools/scripts/lib/platform.mjs)', () => {
    const script = `import(${JSON.stringify(rootPath('tools/scripts/lib/platform.mjs'))}).then((m) => process.stdout.write(JSON.stringify({ services: m.SERVICES, databases: m.SERVICE_DATABASES })))`;
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(out.stderr).toBe('');
    expect(JSON.parse(out.stdout)).toEqual({
      services: DEPLOYED_SERVICES.map((s) => ({ name: s.name, port: s.port, db: s.database, urlVariable: s.urlVariable })),
      databases: deployedWithDatabase.map((s) => s.database),
    });
  });

  it('is the only place outside tests that writes a service port down (comments aside)', () => {
    const codeLines = (text: string) => text.split('\n').filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line));
    const servicePort = /\b31(0[1-9]|[1-9]\d)\b/;
    const sources = ['apps', 'libs', 'tools/scripts', 'tools/seed', 'tools/bench', 'tools/events'].flatMap((dir) =>
      walkFiles(rootPath(dir), (f) => /\.(ts|tsx|mjs|cjs|js|json)$/.test(f)),
    );
    const writers = sources
      // Bench results (last-result.json, git-ignored) are measurements, not code: any number may look like a port.
      .filter((f) => !/[/\\](node_modules|dist|__tests__)[/\\]/.test(f) && !/\.(spec|integration-spec|test|e2e-spec|e2e)\.tsx?$/.test(f) && !/last-result\.json$/.test(f))
      .filter((f) => codeLines(fs.readFileSync(f, 'utf8')).some((line) => servicePort.test(line)))
      .map((f) => path.relative(rootPath(), f));
    expect(writers).toEqual(['libs/contracts/src/lib/service-registry.json']);
  });
});

describe('the service registry and docker/compose.yml', () => {
  it.each(DEPLOYED_SERVICES.map((s) => [s.name, s]))('runs %s on its registry port with its database and migration', (name, s) => {
    const service = compose.services[name];
    expect(service?.build?.args).toEqual({ APP: name, PORT: String(s.port) });
    expect(service?.environment?.PORT).toBe(String(s.port));
    if (s.database) {
      // The port may be compose's variable with 5432 as its default.
      expect(service?.environment?.DATABASE_URL).toMatch(
        new RegExp(`@postgres:(5432|\\$\\{POSTGRES_PORT:-5432\\})/${serviceDatabaseName(s)}$`),
      );
      expect(compose.services[`${name}-migrate`]?.command).toEqual(['migrate']);
      expect(service?.depends_on?.[`${name}-migrate`]?.condition).toBe('service_completed_successfully');
    }
    expect(compose.services.gateway.depends_on?.[name]?.condition).toBe('service_healthy');
  });

  it('tells every app where every registered service lives, planned ones included', () => {
    for (const s of SERVICE_REGISTRY) expect({ [s.urlVariable]: compose.services.gateway.environment?.[s.urlVariable] }).toEqual({ [s.urlVariable]: `http://${s.name}:${s.port}` });
  });

  it('creates the database of every registered service (both init scripts)', () => {
    for (const script of ['docker/postgres/create-databases.sh', 'k8s/overlays/dev/backing/create-databases.sh']) {
      expect(scriptDatabases(rootPath(script))).toEqual(expect.arrayContaining(withDatabase.map((s) => serviceDatabaseName(s))));
    }
  });
});

describe('the service registry and k8s/', () => {
  const kustomization = (dir: string) => loadYaml(rootPath(dir, 'kustomization.yaml')) as Record<string, unknown>;
  const literals = (dir: string, generator: 'configMapGenerator' | 'secretGenerator', name: string) =>
    ((kustomization(dir)[generator] as { name: string; literals?: string[] }[] | undefined) ?? []).find((g) => g.name === name)?.literals ?? [];

  it('lists a folder for exactly the deployed services (and the gateway and web)', () => {
    const resources = kustomization('k8s/base').resources as string[];
    expect(resources.filter((r) => r.endsWith('-service')).sort()).toEqual(DEPLOYED_SERVICES.map((s) => s.name).sort());
  });

  it.each(DEPLOYED_SERVICES.map((s) => [s.name, s]))('deploys %s on its registry port, scraped by Prometheus there', (name, s) => {
    const docs = walkFiles(rootPath('k8s/base', name), (f) => f.endsWith('.yaml')).flatMap(loadYamlDocuments) as {
      kind: string;
      spec?: { ports?: { port: number }[]; template?: { metadata?: { annotations?: Record<string, string> }; spec: { containers: { ports?: { containerPort: number }[]; env?: { name: string; value?: string }[] }[] } } };
    }[];
    const deployment = docs.find((d) => d.kind === 'Deployment');
    const container = deployment?.spec?.template?.spec.containers[0];
    expect(container?.ports?.map((p) => p.containerPort)).toEqual([s.port]);
    expect(container?.env?.find((e) => e.name === 'PORT')?.value).toBe(String(s.port));
    expect(docs.find((d) => d.kind === 'Service')?.spec?.ports?.map((p) => p.port)).toEqual([s.port]);
    expect(docs.some((d) => d.kind === 'Job')).toBe(Boolean(s.database));
    expect(deployment?.spec?.template?.metadata?.annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(s.port),
      'prometheus.io/path': '/metrics',
    });
  });

  it('configures every registered service’s URL, planned ones included', () => {
    const config = literals('k8s/base/common', 'configMapGenerator', 'mate-config');
    for (const s of SERVICE_REGISTRY) expect(config).toContain(`${s.urlVariable}=http://${s.name}:${s.port}`);
  });

  it('has a database secret for each deployed service with a database, and its image in both overlays', () => {
    const secret = loadYaml(rootPath('k8s/base/common/secret.yaml')) as { stringData: Record<string, string> };
    const devSecrets = literals('k8s/overlays/dev', 'secretGenerator', 'mate-secrets');
    for (const s of deployedWithDatabase) {
      expect(secret.stringData[`${s.name}.DATABASE_URL`]).toMatch(new RegExp(`/${serviceDatabaseName(s)}$`));
      expect(devSecrets).toContain(`${s.name}.DATABASE_URL=postgres://mate:mate@postgres:5432/${serviceDatabaseName(s)}`);
    }
    for (const overlay of ['k8s/overlays/dev', 'k8s/overlays/prod']) {
      const images = (kustomization(overlay).images as { name: string }[]).map((i) => i.name);
      expect(images).toEqual(expect.arrayContaining(DEPLOYED_SERVICES.map((s) => `mate/${s.name}`)));
    }
  });
});
