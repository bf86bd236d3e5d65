import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { DEFAULT_PORTS, SERVICE_REGISTRY, serviceDatabaseName } from '@mate/contracts';

/** Repository root (this file is tools/infra-tests/src/lib/workspace.ts). */
export const ROOT = path.resolve(__dirname, '../../../..');

export const rootPath = (...parts: string[]) => path.join(ROOT, ...parts);

/** Ports of ARCHITECTURE §1: the gateway and web apps, and every service's from the service registry. */
export const PORTS: Readonly<Record<string, number>> = {
  gateway: DEFAULT_PORTS.gateway,
  ...Object.fromEntries(SERVICE_REGISTRY.map((s) => [s.name, s.port])),
  web: DEFAULT_PORTS.web,
  'admin-web': DEFAULT_PORTS['admin-web'],
};

export type AppKind = 'gateway' | 'service' | 'web' | 'other';

export interface App {
  /** Folder name under apps/: the Nx project, Docker APP, k8s and compose name. */
  name: string;
  /** `name` in apps/<name>/project.json (must equal the folder name). */
  projectName: string | undefined;
  kind: AppKind;
  /** Port from ARCHITECTURE §1, when the app is listed there. */
  port: number | undefined;
  /** The PostgreSQL database the service registry gives it (ARCHITECTURE §1: mate_<name without -service>). */
  database: string | undefined;
}

interface ProjectJson {
  name?: string;
  tags?: string[];
}

export function appKind(name: string, tags: string[] = []): AppKind {
  if (tags.includes('scope:frontend') || /(^|-)web$/.test(name)) return 'web';
  if (name === 'gateway') return 'gateway';
  if (name.endsWith('-service')) return 'service';
  return 'other';
}

/**
 * Every folder of apps/ except e2e that holds a project.json. INFRA_TESTS_APPS_DIR points the
 * discovery at another folder (to check these tests against an empty or a future apps/).
 */
export function discoverApps(appsDir = process.env.INFRA_TESTS_APPS_DIR || path.join(ROOT, 'apps')): App[] {
  if (!fs.existsSync(appsDir)) return [];
  return fs
    .readdirSync(appsDir, { withFileTypes: true })
    .filter(
      (d) => d.isDirectory() && d.name !== 'e2e' && fs.existsSync(path.join(appsDir, d.name, 'project.json')),
    )
    .map((d) => {
      const project = JSON.parse(
        fs.readFileSync(path.join(appsDir, d.name, 'project.json'), 'utf8'),
      ) as ProjectJson;
      const kind = appKind(d.name, project.tags ?? []);
      return {
        name: d.name,
        projectName: project.name,
        kind,
        port: PORTS[d.name],
        database: kind === 'service' ? registeredDatabase(d.name) : undefined,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A service's database from the registry; an unregistered one gets the convention's name. */
function registeredDatabase(app: string): string | undefined {
  const entry = SERVICE_REGISTRY.find((s) => s.name === app);
  return entry ? (serviceDatabaseName(entry) ?? undefined) : `mate_${app.replace(/-service$/, '').replace(/-/g, '_')}`;
}

/** auth-service -> AUTH_SERVICE_URL, the variable the gateway reads (the registry's, when registered). */
export function urlVariable(app: string): string {
  return SERVICE_REGISTRY.find((s) => s.name === app)?.urlVariable ?? `${app.toUpperCase().replace(/-/g, '_')}_URL`;
}

export function loadYamlDocuments(file: string): unknown[] {
  return yaml
    .loadAll(fs.readFileSync(file, 'utf8'), undefined, { filename: file })
    .filter((d) => d !== null && d !== undefined);
}

export function loadYaml(file: string): unknown {
  return yaml.load(fs.readFileSync(file, 'utf8'), { filename: file });
}

/** Every file below dir whose name matches. */
export function walkFiles(dir: string, match: (file: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return walkFiles(full, match);
    return match(full) ? [full] : [];
  });
}

/** Databases created by docker/postgres/create-databases.sh unless MATE_DATABASES overrides them. */
export function scriptDatabases(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const m = /DATABASES="\$\{MATE_DATABASES:-([^}]*)\}"/.exec(text);
  return m ? m[1].trim().split(/\s+/) : [];
}

/**
 * Which service calls which over HTTP (the kit's ServiceClient): a caller declares the callee's
 * `<NAME>_SERVICE_URL` in its env class (`@IsServiceUrl()`), so the settings files are the list.
 * Answers callee -> callers, each sorted.
 */
export function internalCalls(appsDir = path.join(ROOT, 'apps')): Record<string, string[]> {
  const calleeOf = new Map<string, string>(SERVICE_REGISTRY.map((s) => [s.urlVariable, s.name]));
  const calls: Record<string, string[]> = {};
  for (const app of discoverApps(appsDir).filter((a) => a.kind === 'service')) {
    const envFiles = walkFiles(path.join(appsDir, app.name, 'src'), (f) => f.endsWith('.env.ts'));
    for (const file of envFiles) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/@IsServiceUrl\(\)\s+(\w+)\??:/g)) {
        const callee = calleeOf.get(m[1]);
        if (!callee) throw new Error(`${file}: ${m[1]} names no service in the registry`);
        calls[callee] = [...new Set([...(calls[callee] ?? []), app.name])].sort();
      }
    }
  }
  return calls;
}
