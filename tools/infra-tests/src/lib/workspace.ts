import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';

/** Repository root (this file is tools/infra-tests/src/lib/workspace.ts). */
export const ROOT = path.resolve(__dirname, '../../../..');

export const rootPath = (...parts: string[]) => path.join(ROOT, ...parts);

/** Ports fixed by ARCHITECTURE §1: gateway, services 3101-3108 in order, web apps. */
export const PORTS: Readonly<Record<string, number>> = {
  gateway: 3000,
  'auth-service': 3101,
  'profile-service': 3102,
  'matching-service': 3103,
  'chat-service': 3104,
  'call-service': 3105,
  'safety-service': 3106,
  'admin-service': 3107,
  'notification-service': 3108,
  web: 4200,
  'admin-web': 4300,
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
  /** Every NestJS service owns a PostgreSQL database (ARCHITECTURE §1): mate_<name without -service>. */
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
        database: kind === 'service' ? `mate_${d.name.replace(/-service$/, '')}` : undefined,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** auth-service -> AUTH_SERVICE_URL, the variable the gateway reads. */
export function urlVariable(app: string): string {
  return `${app.toUpperCase().replace(/-/g, '_')}_URL`;
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
