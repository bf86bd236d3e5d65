import path from 'node:path';
import { generateFiles, names, readJson, type Tree } from '@nx/devkit';

export interface ServiceGeneratorOptions {
  /** `matching-service` or `matching`. */
  name: string;
  port?: number;
  route?: string;
}

/** One entry of libs/contracts/src/lib/service-registry.json (typed in services.ts). */
interface RegistryEntry {
  name: string;
  port: number;
  status: 'deployed' | 'planned';
  database: string | null;
  worker: boolean;
  queues: string[];
  routes: string[];
  adminRoutes: string[];
  publicRoutes: string[];
  urlVariable: string;
}

export const REGISTRY_FILE = 'libs/contracts/src/lib/service-registry.json';
const CATALOGUE_FILE = 'libs/contracts/src/lib/events.ts';
const COMPOSE_FILE = 'docker/compose.yml';
const COMPOSE_HOST_FILE = 'docker/compose.host.yml';
const DATABASE_SCRIPTS = ['docker/postgres/create-databases.sh', 'k8s/overlays/dev/backing/create-databases.sh'];
const K8S_BASE = 'k8s/base';
/** The first port of the services' range (ARCHITECTURE §1: 3101-3108, new ones after). */
const FIRST_SERVICE_PORT = 3101;

/**
 * `nx g @mate/tools:service <name>`: a new service on the service kit that builds, lints, has an
 * integration test on the service test bed, is in the service registry (so `npm start` starts it
 * and the gateway routes its prefix) and has its compose and k8s entries. A service the registry
 * already plans (matching, chat, ...) keeps its planned port and prefixes and becomes deployed.
 */
export async function serviceGenerator(tree: Tree, options: ServiceGeneratorOptions): Promise<void> {
  const name = options.name.endsWith('-service') ? options.name : `${options.name}-service`;
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*-service$/.test(name)) {
    throw new Error(`"${options.name}" is not a service name: use lowercase words joined by "-", e.g. matching-service`);
  }
  if (tree.exists(`apps/${name}/project.json`)) throw new Error(`apps/${name} exists already`);

  const entry = registerService(tree, name, options);
  addServiceName(tree, name);
  const short = name.replace(/-service$/, '');
  const vars = {
    name,
    fileName: short,
    key: names(short).propertyName,
    className: names(short).className,
    port: entry.port,
    routes: [...entry.routes, ...entry.adminRoutes],
    routePath: entry.routes[0] ?? entry.adminRoutes[0],
    databaseName: `mate_${entry.database}`,
    databaseLabel: entry.database,
    tmpl: '',
  };
  generateFiles(tree, path.join(__dirname, 'files'), `apps/${name}`, vars);
  generateFiles(tree, path.join(__dirname, 'k8s'), `${K8S_BASE}/${name}`, vars);
  addToCompose(tree, entry);
  addToComposeHost(tree, entry.name);
  for (const script of DATABASE_SCRIPTS) addDatabase(tree, script, `mate_${entry.database}`);
  addToKustomize(tree, entry);
}

/** Adds the service to the registry, or turns its planned entry into a deployed one. */
function registerService(tree: Tree, name: string, options: ServiceGeneratorOptions): RegistryEntry {
  const registry = readJson<{ services: RegistryEntry[] }>(tree, REGISTRY_FILE);
  const planned = registry.services.find((s) => s.name === name);
  if (planned?.status === 'deployed') throw new Error(`${name} is deployed already (${REGISTRY_FILE})`);
  const port = options.port ?? planned?.port ?? Math.max(FIRST_SERVICE_PORT - 1, ...registry.services.map((s) => s.port)) + 1;
  const taken = registry.services.find((s) => s.port === port && s.name !== name);
  if (taken) throw new Error(`port ${port} belongs to ${taken.name}`);
  const short = name.replace(/-service$/, '');
  const routes = options.route ? [options.route] : (planned?.routes ?? [`/api/${short}`]);
  const adminRoutes = options.route ? [] : (planned?.adminRoutes ?? []);
  const owner = registry.services.find((s) => s.name !== name && [...s.routes, ...s.adminRoutes].some((r) => routes.includes(r)));
  if (owner) throw new Error(`the route ${routes.join(', ')} belongs to ${owner.name}`);
  const entry: RegistryEntry = {
    name,
    port,
    status: 'deployed',
    // Every service owns its database (ARCHITECTURE §1): mate_<name without -service>.
    database: short.replace(/-/g, '_'),
    worker: planned?.worker ?? false,
    queues: planned?.queues ?? [],
    routes,
    adminRoutes,
    publicRoutes: planned?.publicRoutes ?? [],
    urlVariable: `${short.toUpperCase().replace(/-/g, '_')}_SERVICE_URL`,
  };
  registry.services = planned ? registry.services.map((s) => (s.name === name ? entry : s)) : [...registry.services, entry];
  tree.write(REGISTRY_FILE, `${formatJson(registry)}\n`);
  return entry;
}

/** The workspace's Prettier line width: a list that fits stays on one line, as Prettier keeps it. */
const PRINT_WIDTH = 110;

/**
 * JSON laid out as Prettier keeps the registry (objects one key a line, short lists inline), so the
 * diff of a generated service is its entry and nothing else. Prettier itself cannot load here: it
 * imports its plugins dynamically, which Jest's CommonJS runtime refuses.
 */
export function formatJson(value: unknown, indent = '', prefix = ''): string {
  if (Array.isArray(value)) {
    const inline = `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
    const primitives = value.every((v) => v === null || typeof v !== 'object');
    if (primitives && indent.length + prefix.length + inline.length + 1 <= PRINT_WIDTH) return inline;
    if (value.length === 0) return '[]';
    const inner = `${indent}  `;
    return `[\n${value.map((v) => `${inner}${formatJson(v, inner)}`).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const inner = `${indent}  `;
    const lines = Object.entries(value).map(([key, v]) => {
      const keyText = `${JSON.stringify(key)}: `;
      return `${inner}${keyText}${formatJson(v, inner, keyText)}`;
    });
    return lines.length ? `{\n${lines.join(',\n')}\n${indent}}` : '{}';
  }
  return JSON.stringify(value);
}

/** Names a brand-new service in `SERVICES` of the event catalogue, the type every side uses. */
function addServiceName(tree: Tree, name: string) {
  const source = tree.read(CATALOGUE_FILE, 'utf-8');
  if (!source) throw new Error(`${CATALOGUE_FILE} is missing`);
  if (source.includes(`'${name}'`)) return;
  const block = /export const SERVICES = \{\n([\s\S]*?)\} as const;/.exec(source);
  if (!block) throw new Error(`${CATALOGUE_FILE}: no "export const SERVICES = { ... } as const;" to add ${name} to`);
  const key = names(name.replace(/-service$/, '')).propertyName;
  const end = block.index + block[0].lastIndexOf('} as const;');
  tree.write(CATALOGUE_FILE, `${source.slice(0, end)}  ${key}: '${name}',\n${source.slice(end)}`);
}

/**
 * compose.yml is edited as text, so its anchors and comments stay: the service next to its
 * siblings, its one-shot migration, its URL for the gateway, and the gateway waiting for it.
 */
function addToCompose(tree: Tree, entry: RegistryEntry) {
  let text = read(tree, COMPOSE_FILE);
  const { name, port, database, urlVariable } = entry;
  const service = `  ${name}:
    <<: *app
    image: \${MATE_REGISTRY:-mate}/${name}:\${MATE_TAG:-latest}
    build:
      <<: *build
      args: { APP: ${name}, PORT: '${port}' }
    environment: &${name}-env
      <<: *env
      PORT: '${port}'
      DATABASE_URL: postgres://mate:\${POSTGRES_PASSWORD:-mate}@postgres:\${POSTGRES_PORT:-5432}/mate_${database}
    healthcheck: *ready
    depends_on:
      ${name}-migrate:
        condition: service_completed_successfully
      redis:
        condition: service_healthy

`;
  const migrate = `  ${name}-migrate:
    <<: *migrate
    image: \${MATE_REGISTRY:-mate}/${name}:\${MATE_TAG:-latest}
    environment: *${name}-env

`;
  text = insertBefore(text, '\n  gateway:\n', `\n${service.trimEnd()}\n`, COMPOSE_FILE);
  text = insertBefore(text, '  # --- web apps', migrate, COMPOSE_FILE);
  // The gateway waits for it: appended to the end of the gateway's depends_on.
  const gateway = text.indexOf('\n  gateway:\n');
  let end = text.indexOf('    depends_on:\n', gateway) + '    depends_on:\n'.length;
  while (text.startsWith('      ', end)) end = text.indexOf('\n', end) + 1;
  text = `${text.slice(0, end)}      ${name}:\n        condition: service_healthy\n${text.slice(end)}`;
  if (!text.includes(`  ${urlVariable}:`)) {
    text = insertAfterLast(text, /^ {2}[A-Z_]+_SERVICE_URL: .*\n/gm, `  ${urlVariable}: http://${name}:${port}\n`, COMPOSE_FILE);
  }
  tree.write(COMPOSE_FILE, text);
}

/**
 * compose.host.yml (host networking, ADR 0022) names every service of compose.yml: the new one and
 * its migration join it, on 127.0.0.1, and every container maps its name to 127.0.0.1.
 */
function addToComposeHost(tree: Tree, name: string) {
  if (!tree.exists(COMPOSE_HOST_FILE)) return;
  let text = read(tree, COMPOSE_HOST_FILE);
  text = insertAfterLast(text, /^ {4}- '[a-z-]+:127\.0\.0\.1'\n/gm, `    - '${name}:127.0.0.1'\n`, COMPOSE_HOST_FILE);
  text = insertBefore(
    text,
    '  web:\n',
    `  ${name}:\n    <<: *host\n    environment: { HOST: 127.0.0.1 }\n  ${name}-migrate:\n    <<: *host\n`,
    COMPOSE_HOST_FILE,
  );
  tree.write(COMPOSE_HOST_FILE, text);
}

function addDatabase(tree: Tree, script: string, database: string) {
  if (!tree.exists(script)) return;
  const text = read(tree, script);
  const list = /DATABASES="\$\{MATE_DATABASES:-([^}]*)\}"/.exec(text);
  if (!list) throw new Error(`${script}: no DATABASES list to add ${database} to`);
  if (list[1].split(/\s+/).includes(database)) return;
  tree.write(script, text.replace(list[0], `DATABASES="\${MATE_DATABASES:-${list[1]} ${database}}"`));
}

/** The base lists the folder; the config names its URL; secrets and overlays give it a database and an image. */
function addToKustomize(tree: Tree, entry: RegistryEntry) {
  const { name, port, database, urlVariable } = entry;
  const base = `${K8S_BASE}/kustomization.yaml`;
  tree.write(base, insertBefore(read(tree, base), '  - web\n', `  - ${name}\n`, base));

  const common = `${K8S_BASE}/common/kustomization.yaml`;
  if (!read(tree, common).includes(`${urlVariable}=`)) {
    tree.write(common, insertAfterLast(read(tree, common), /^ +- [A-Z_]+_SERVICE_URL=.*\n/gm, `      - ${urlVariable}=http://${name}:${port}\n`, common));
  }

  const secret = `${K8S_BASE}/common/secret.yaml`;
  tree.write(
    secret,
    insertAfterLast(
      read(tree, secret),
      /^ {2}[a-z-]+\.DATABASE_URL: .*\n/gm,
      `  ${name}.DATABASE_URL: postgres://mate_${database}:REPLACE_ME@REPLACE_ME:5432/mate_${database}\n`,
      secret,
    ),
  );

  const dev = 'k8s/overlays/dev/kustomization.yaml';
  let devText = insertAfterLast(read(tree, dev), /^ {6}- [a-z-]+\.DATABASE_URL=.*\n/gm, `      - ${name}.DATABASE_URL=postgres://mate:mate@postgres:5432/mate_${database}\n`, dev);
  devText = insertBefore(devText, '  - { name: mate/web,', `  - { name: mate/${name}, newTag: dev }\n`, dev);
  tree.write(dev, devText);

  // The operators' list of secret keys (k8s/README.md) names the new one, in the table and the command.
  const readme = 'k8s/README.md';
  let readmeText = insertAfterLast(
    read(tree, readme),
    /^ {3}\| `[a-z-]+\.DATABASE_URL` +\|.*\n/gm,
    `   | \`${name}.DATABASE_URL\` | ${name} (\`mate_${database}\`) |\n`,
    readme,
  );
  const lastLiteral = [...readmeText.matchAll(/^( +--from-literal=[a-z-]+\.DATABASE_URL=postgres:\/\/\.\.\.)\n/gm)].at(-1);
  if (!lastLiteral || lastLiteral.index === undefined) throw new Error(`${readme}: no --from-literal=<app>.DATABASE_URL line`);
  readmeText = `${readmeText.slice(0, lastLiteral.index)}${lastLiteral[1]} \\\n     --from-literal=${name}.DATABASE_URL=postgres://...\n${readmeText.slice(lastLiteral.index + lastLiteral[0].length)}`;
  tree.write(readme, readmeText);

  const prod = 'k8s/overlays/prod/kustomization.yaml';
  tree.write(
    prod,
    insertBefore(read(tree, prod), '  - { name: mate/web,', `  - { name: mate/${name}, newName: registry.example.com/mate/${name}, newTag: '0.1.0' }\n`, prod),
  );
}

function read(tree: Tree, file: string): string {
  const text = tree.read(file, 'utf-8');
  if (text === null) throw new Error(`${file} is missing`);
  return text;
}

function insertBefore(text: string, anchor: string, insertion: string, file: string): string {
  const at = text.indexOf(anchor);
  if (at < 0) throw new Error(`${file}: cannot find "${anchor.trim()}" to insert before`);
  return `${text.slice(0, at)}${insertion}${text.slice(at)}`;
}

function insertAfterLast(text: string, pattern: RegExp, insertion: string, file: string): string {
  const matches = [...text.matchAll(pattern)];
  const last = matches.at(-1);
  if (!last || last.index === undefined) throw new Error(`${file}: nothing matches ${pattern} to insert after`);
  const at = last.index + last[0].length;
  return `${text.slice(0, at)}${insertion}${text.slice(at)}`;
}

export default serviceGenerator;
