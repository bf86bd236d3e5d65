import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { App, discoverApps, loadYaml, rootPath, scriptDatabases, urlVariable } from './lib/workspace';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
  ports?: string[];
  volumes?: string[];
  restart?: string;
  user?: string;
}

const COMPOSE = rootPath('docker/compose.yml');
/** Every `${VAR:-default}` (default not empty) as its default: what compose runs when the variable is unset. */
function withDefaults<T>(value: T): T {
  if (typeof value === 'string') return value.replace(/\$\{[A-Z_]+:-([^}]+)\}/g, '$1') as T;
  if (Array.isArray(value)) return value.map(withDefaults) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withDefaults(v)])) as T;
  return value;
}
const raw = loadYaml(COMPOSE) as {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
};
const compose = withDefaults(raw);
const services = compose.services;
const apps = discoverApps();
const CONDITIONS = ['service_started', 'service_healthy', 'service_completed_successfully'];

describe('docker/compose.yml', () => {
  it('runs PostgreSQL 16 (databases created by the init script), Redis 7 and maildev (SMTP 1025, web 1080)', () => {
    expect(services.postgres.image).toMatch(/^postgres:16/);
    expect(services.postgres.volumes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^\.\/postgres\/create-databases\.sh:\/docker-entrypoint-initdb\.d\/[^:]+\.sh(:ro)?$/,
        ),
      ]),
    );
    expect(services['postgres-databases'].depends_on?.postgres.condition).toBe('service_healthy');
    expect(services.redis.image).toMatch(/^redis:7/);
    expect(services.maildev.image).toMatch(/^maildev\/maildev(:|$)/);
    expect(services.maildev.ports?.some((p) => /:1080$/.test(p))).toBe(true);
    expect(services.maildev.environment?.MAILDEV_SMTP_PORT).toBe('1025');
    for (const infra of ['postgres', 'redis', 'maildev'])
      expect(services[infra].healthcheck?.test?.length).toBeGreaterThan(0);
  });

  it('creates a database for every service', () => {
    const databases = scriptDatabases(rootPath('docker/postgres/create-databases.sh'));
    expect(databases).toEqual(expect.arrayContaining(apps.flatMap((a) => (a.database ? [a.database] : []))));
  });

  it('every depends_on names an existing service with a valid condition; service_healthy targets have a healthcheck', () => {
    for (const [name, svc] of Object.entries(services)) {
      for (const [dep, { condition }] of Object.entries(svc.depends_on ?? {})) {
        expect({ name, dep, exists: dep in services, condition: CONDITIONS.includes(condition) }).toEqual({
          name,
          dep,
          exists: true,
          condition: true,
        });
        if (condition === 'service_healthy') {
          expect({
            dep,
            healthcheck:
              Boolean(services[dep].healthcheck?.test?.length) && !services[dep].healthcheck?.disable,
          }).toEqual({ dep, healthcheck: true });
        }
      }
    }
  });

  it('relative bind mounts exist in the repository', () => {
    for (const svc of Object.values(services)) {
      for (const v of svc.volumes ?? []) {
        const source = v.split(':')[0];
        if (source.startsWith('.'))
          expect({ source, exists: fs.existsSync(path.resolve(path.dirname(COMPOSE), source)) }).toEqual({
            source,
            exists: true,
          });
      }
    }
  });

  /** it.each over some apps; a skipped placeholder while there is none (Jest refuses an empty table). */
  const eachOf = (list: App[]) =>
    list.length > 0
      ? it.each(list.map((a) => [a.name, a] as [string, App | undefined]))
      : it.skip.each([['(none yet)', undefined] as [string, App | undefined]]);
  const eachApp = eachOf(apps);
  const eachDatabaseApp = eachOf(apps.filter((a) => a.database));
  const eachBackendApp = eachOf(apps.filter((a) => a.kind !== 'web'));

  eachApp('%s is built from docker/Dockerfile, listens on its port and has a healthcheck', (name, app) => {
    if (!app) return;
    const svc = services[name];
    expect(svc).toBeDefined();
    expect(svc.build?.dockerfile).toBe('docker/Dockerfile');
    expect(path.resolve(path.dirname(COMPOSE), svc.build?.context ?? '')).toBe(rootPath());
    expect(svc.build?.args?.APP).toBe(name);
    expect(svc.image).toMatch(new RegExp(`/${name}:`));
    expect(svc.environment?.HOST).toBe('0.0.0.0');
    if (app.port !== undefined) expect(svc.environment?.PORT).toBe(String(app.port));
    expect(svc.healthcheck?.test?.length).toBeGreaterThan(0);
    expect(svc.healthcheck?.disable).not.toBe(true);
    expect(svc.healthcheck?.test?.join(' ')).toMatch(
      app.kind === 'web' ? /\/health\b/ : /\/health\/(ready|live)/,
    );
  });

  eachDatabaseApp('%s migrates in a one-shot container before it starts', (name, app) => {
    if (!app?.database) return;
    const svc = services[name];
    const migrate = services[`${name}-migrate`];
    expect(migrate).toBeDefined();
    expect(migrate.image).toBe(svc.image);
    expect(migrate.command).toEqual(['migrate']);
    expect(migrate.restart).toBe('no');
    expect(migrate.environment?.DATABASE_URL).toBe(svc.environment?.DATABASE_URL);
    expect(svc.environment?.DATABASE_URL).toMatch(
      new RegExp(`^postgres(ql)?://[^/]+@postgres:5432/${app.database}$`),
    );
    expect(
      Object.keys(migrate.depends_on ?? {}).some((d) => d === 'postgres' || d === 'postgres-databases'),
    ).toBe(true);
    expect(svc.depends_on?.[`${name}-migrate`]?.condition).toBe('service_completed_successfully');
  });

  eachBackendApp('%s gets the shared settings', (name, app) => {
    if (!app) return;
    const env = services[name].environment ?? {};
    for (const key of [
      'NODE_ENV',
      'REDIS_URL',
      'JWT_SECRET',
      'INTERNAL_TOKEN',
      'LOG_LEVEL',
      'SMTP_URL',
      'MAIL_FROM',
      'WEB_URL',
      'CORS_ORIGINS',
      'ADMIN_EMAILS',
    ]) {
      expect({ name, key, set: Boolean(env[key]) }).toEqual({ name, key, set: true });
    }
  });

  it('every app service knows every backend service at http://<app>:<port>', () => {
    for (const app of apps.filter((a) => a.kind === 'service' && a.port)) {
      for (const consumer of apps.filter((a) => a.kind !== 'web')) {
        expect({
          consumer: consumer.name,
          url: services[consumer.name]?.environment?.[urlVariable(app.name)],
        }).toEqual({
          consumer: consumer.name,
          url: `http://${app.name}:${app.port}`,
        });
      }
    }
  });

  it('coturn is optional (profile turn), takes its shared secret from the environment and relays to no private address', () => {
    const turn = services.coturn as ComposeService & { profiles?: string[] };
    expect(turn.image).toMatch(/^coturn\/coturn:/);
    expect(turn.profiles).toEqual(['turn']);
    expect(turn.environment?.TURN_SECRET).toBe('${TURN_SECRET:-}');
    const args = turn.command as string[];
    expect(args).toEqual(
      expect.arrayContaining(['--use-auth-secret', '--static-auth-secret=$${TURN_SECRET}', '--no-cli']),
    );
    for (const range of [
      '10.0.0.0-10.255.255.255',
      '127.0.0.0-127.255.255.255',
      '172.16.0.0-172.31.255.255',
      '192.168.0.0-192.168.255.255',
      '169.254.0.0-169.254.255.255',
    ])
      expect(args).toContain(`--denied-peer-ip=${range}`);
    expect(turn.ports).toEqual(expect.arrayContaining(['3478:3478/udp', '3478:3478/tcp']));
    // call-service hands out credentials made from the same secret.
    for (const key of ['STUN_URLS', 'TURN_URLS', 'TURN_SECRET', 'TRANSCRIBE_URL'])
      expect({ key, set: key in (services['call-service'].environment ?? {}) }).toEqual({ key, set: true });
    expect(services['call-service'].environment?.TURN_SECRET).toBe('${TURN_SECRET:-}');
  });

  it('notification-service takes the optional VAPID key pair for web push from the environment (no literal keys)', () => {
    const env = services['notification-service'].environment ?? {};
    expect(env.VAPID_PUBLIC_KEY).toBe('${VAPID_PUBLIC_KEY:-}');
    expect(env.VAPID_PRIVATE_KEY).toBe('${VAPID_PRIVATE_KEY:-}');
    expect(raw.services['notification-service'].environment?.VAPID_SUBJECT).toMatch(/^\$\{VAPID_SUBJECT:-mailto:.+\}$/);
  });

  it('publishes the gateway on this host only and has it believe no X-Forwarded-For (issue 7 item 1 review)', () => {
    // A private-range trust would take the word of any client reaching the port through Docker's proxy.
    expect(services.gateway.environment?.TRUST_PROXY).toBe('false');
    expect(services.gateway.ports).toEqual(['127.0.0.1:3000:3000']);
  });
});

describe('docker/compose.host.yml (host networking, for engines without a bridge network)', () => {
  const host = loadYaml(rootPath('docker/compose.host.yml')) as {
    services: Record<string, { network_mode?: string; extra_hosts?: string[]; environment?: Record<string, string>; command?: string[] }>;
  };
  const optional = new Set(['coturn']);

  it('is valid for compose v1 too: no top-level name (docker-compose 1.29 refuses it)', () => {
    expect(Object.keys(raw)).not.toContain('name');
    expect(Object.keys(host)).not.toContain('name');
  });

  it('puts every service of compose.yml on the host network and maps every compose name to 127.0.0.1', () => {
    const names = Object.keys(services).filter((n) => !optional.has(n));
    expect(Object.keys(host.services).sort()).toEqual(names.sort());
    const reached = ['postgres', 'redis', 'maildev', 'gateway', ...apps.filter((a) => a.kind === 'service').map((a) => a.name)];
    for (const [name, svc] of Object.entries(host.services)) {
      expect({ name, network: svc.network_mode }).toEqual({ name, network: 'host' });
      for (const target of reached) expect(svc.extra_hosts).toContain(`${target}:127.0.0.1`);
    }
  });

  it('has every server listen on 127.0.0.1 only', () => {
    for (const app of apps.filter((a) => a.name in services)) {
      expect({ app: app.name, host: host.services[app.name]?.environment?.HOST }).toEqual({ app: app.name, host: '127.0.0.1' });
    }
    expect(host.services.postgres.command).toEqual(expect.arrayContaining(['listen_addresses=127.0.0.1']));
    expect(host.services.redis.command).toEqual(expect.arrayContaining(['--bind', '127.0.0.1']));
    expect(host.services.maildev.environment?.MAILDEV_IP).toBe('127.0.0.1');
  });
});

describe('the e2e run moves the containers off the default ports (tools/scripts/lib/compose-ports.mjs)', () => {
  /** compose.yml (defaults applied) with every service on the host network, as compose.host.yml makes it, moved as the e2e run moves it. */
  function moved(): { services: Record<string, ComposeService>; moves: Array<[number, number]> } {
    const hostNetwork = {
      services: Object.fromEntries(Object.entries(services).map(([name, service]) => [name, { ...service, network_mode: 'host' }])),
    };
    const script = `
      import { composePorts, movePorts, portMoves } from ${JSON.stringify(rootPath('tools/scripts/lib/compose-ports.mjs'))};
      let input = '';
      process.stdin.on('data', (c) => (input += c)).on('end', () => {
        const config = JSON.parse(input);
        const { services, ...apps } = composePorts(config);
        const up = (port) => port + 850;
        const ports = { ...Object.fromEntries(Object.entries(apps).map(([name, port]) => [name, up(port)])), services: Object.fromEntries(Object.entries(services).map(([name, port]) => [name, up(port)])) };
        const moves = portMoves(config, ports);
        process.stdout.write(JSON.stringify({ services: movePorts(config, moves).services, moves: [...moves] }));
      });`;
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { input: JSON.stringify(hostNetwork), encoding: 'utf8' });
    expect(out.stderr).toBe('');
    return JSON.parse(out.stdout);
  }

  it('moves every app port, URL and health check, so the containers run beside npm start', () => {
    const { services: after, moves } = moved();
    // Read from compose.yml: the gateway, both web apps, maildev's two ports and every service.
    expect(moves.map(([from]) => from).sort()).toEqual(
      [1025, 1080, 3000, 4200, 4300, ...apps.filter((a) => a.kind === 'service').map((a) => a.port)].sort(),
    );
    expect(after.gateway.environment?.PORT).toBe('3850');
    expect(after.gateway.environment?.AUTH_SERVICE_URL).toBe('http://auth-service:3951');
    expect(after.gateway.environment?.NOTIFICATION_SERVICE_URL).toBe('http://notification-service:3958');
    expect(after['auth-service'].environment?.PORT).toBe('3951');
    expect(after['auth-service'].environment?.SMTP_URL).toBe('smtp://maildev:1875');
    expect(after.web.environment?.PORT).toBe('5050');
    expect(after.web.environment?.API_PROXY_URL).toBe('http://gateway:3850');
    expect(after['admin-web'].environment?.PORT).toBe('5150');
    expect(after.maildev.environment).toMatchObject({ MAILDEV_SMTP_PORT: '1875', MAILDEV_WEB_PORT: '1930' });
    expect(after.maildev.healthcheck?.test?.join(' ')).toContain('http://127.0.0.1:1930/healthz');
  });

  it('leaves no default app port in any variable, command or health check (a new one added to compose.yml is moved too, or this fails)', () => {
    const { services: after, moves } = moved();
    const old = new Set(moves.map(([from]) => String(from)));
    const left: string[] = [];
    for (const [name, service] of Object.entries(after)) {
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        if (/PORT$/.test(key) ? old.has(String(value)) : [...old].some((port) => new RegExp(`:${port}\\b`).test(String(value))))
          left.push(`${name} ${key}=${value}`);
      }
      for (const part of [...(Array.isArray(service.command) ? service.command : []), ...(service.healthcheck?.test ?? [])]) {
        if ([...old].some((port) => new RegExp(`:${port}\\b`).test(part))) left.push(`${name}: ${part}`);
      }
    }
    expect(left).toEqual([]);
  });

  it('never touches PostgreSQL, Redis or a number that is not a port', () => {
    const { services: after } = moved();
    expect(after['auth-service'].environment?.DATABASE_URL).toBe(services['auth-service'].environment?.DATABASE_URL);
    expect(after['auth-service'].environment?.REDIS_URL).toBe(services['auth-service'].environment?.REDIS_URL);
    expect(after['auth-service'].environment?.OUTBOX_POLL_MS).toBe(services['auth-service'].environment?.OUTBOX_POLL_MS);
  });
});
