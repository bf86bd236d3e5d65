// The ports of the platform's compose file and how a run moves them off the defaults: read from
// the merged file itself, so nothing repeats compose.yml's numbers. Used by the e2e runner's
// container platform (apps/e2e/compose-platform.mjs) and checked by tools/infra-tests.
import { SERVICES } from './platform.mjs';

/**
 * The ports compose.yml gives the apps, as the run's `ports` name them, read from the merged file
 * itself (each app's PORT, maildev's two), so nothing here repeats compose.yml's numbers.
 */
export function composePorts(config) {
  const env = (service, name) => Number(config.services[service]?.environment?.[name]);
  return {
    gateway: env('gateway', 'PORT'),
    web: env('web', 'PORT'),
    adminWeb: env('admin-web', 'PORT'),
    smtp: env('maildev', 'MAILDEV_SMTP_PORT'),
    maildevWeb: env('maildev', 'MAILDEV_WEB_PORT'),
    services: Object.fromEntries(SERVICES.map((s) => [s.name, env(s.name, 'PORT')])),
  };
}

/** Old port -> new for every app whose port the run's `ports` change. */
export function portMoves(config, ports) {
  const { services, ...apps } = composePorts(config);
  return new Map(
    [
      ...Object.entries(apps).map(([name, port]) => [port, ports[name]]),
      ...Object.entries(services).map(([name, port]) => [port, ports.services[name]]),
    ].filter(([from, to]) => from !== to),
  );
}

/**
 * Moves the apps off compose.yml's ports (`moves`: old port -> new), so the containers can run
 * beside a `npm start` or another stack on this machine: every variable named *PORT that holds a
 * moved port, and every `:<port>` that ends a host in a URL (…_SERVICE_URL, SMTP_URL,
 * API_PROXY_URL, a health check's fetch), in the environment, command and health check of each
 * host-network service. Nothing else in the file names those ports (docker/compose.host.yml).
 */
export function movePorts(config, moves) {
  const inUrls = (text) => text.replace(/:(\d{2,5})(?=[/,'"]|$)/g, (match, port) => (moves.has(Number(port)) ? `:${moves.get(Number(port))}` : match));
  for (const service of Object.values(config.services)) {
    if (service.network_mode !== 'host') continue;
    for (const [name, value] of Object.entries(service.environment ?? {})) {
      const text = String(value ?? '');
      service.environment[name] = /PORT$/.test(name) && moves.has(Number(text)) ? String(moves.get(Number(text))) : inUrls(text);
    }
    if (Array.isArray(service.command)) service.command = service.command.map((part) => inUrls(String(part)));
    if (Array.isArray(service.healthcheck?.test)) service.healthcheck.test = service.healthcheck.test.map((part) => inUrls(String(part)));
  }
  return config;
}
