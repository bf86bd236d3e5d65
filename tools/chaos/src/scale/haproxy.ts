import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import path from 'node:path';
import { answers, killOnExit, waitFor } from '@mate/server-kit/testing';

/** One load-balanced tier: a frontend on `port`, round robin over its replicas, health-checked. */
export interface BalancedTier {
  name: string;
  /** The frontend's port: what every client of the tier is told (`<NAME>_SERVICE_URL`, the gateway's URL). */
  port: number;
  replicas: { name: string; port: number }[];
  /** The path a replica answers 200 on while it can serve (`/health/ready`, the gateway's `/health`). */
  health: string;
  /**
   * Sticky by a cookie HAProxy inserts (the browser keeps it), for socket.io's long-polling: each
   * poll of one engine.io session must reach the replica that holds it. A WebSocket needs no
   * stickiness after its upgrade; API calls need none (every replica serves any request).
   */
  sticky?: boolean;
  /**
   * Appends the client's address to X-Forwarded-For (the gateway's tier: the gateway, trusting one
   * proxy hop, rate-limits by it, as behind the ingress). Not for the services' tiers: the gateway
   * already tells them the client's address, with its internal credential.
   */
  forwardFor?: boolean;
}

/**
 * HAProxy's configuration for the tiers. A replica is taken out after three failed checks a second
 * apart (and put back after two good ones); a request whose connection to a replica failed (nothing was sent) is tried on another
 * (`retry-on conn-failure`, `option redispatch`), which is safe for every method. A request sent to
 * a replica that died before answering is not retried: a POST may have been applied.
 */
export function haproxyConfig(tiers: BalancedTier[], monitorPort: number): string {
  const lines = [
    'global',
    // Each connection takes two descriptors (client and server side): within the process's usual limit.
    '  maxconn 4000',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 65s',
    '  timeout server 65s',
    // A WebSocket (socket.io after its upgrade) may stay open for hours.
    '  timeout tunnel 2h',
    '  retries 2',
    '  retry-on conn-failure',
    '  option redispatch',
    // A check may be slow on a loaded machine (2 s); three failed ones a second apart take a
    // replica out, two good ones put it back. A dead replica refuses at once, and the request is
    // tried on another meanwhile (retry-on conn-failure), so the checks need not be quick.
    '  timeout check 2s',
    '  default-server inter 1s fall 3 rise 2',
    '',
    'frontend monitor',
    `  bind 127.0.0.1:${monitorPort}`,
    '  monitor-uri /health',
    '',
  ];
  for (const tier of tiers) {
    lines.push(`frontend ${tier.name}`, `  bind 127.0.0.1:${tier.port}`, `  default_backend ${tier.name}`, '');
    lines.push(`backend ${tier.name}`, '  balance roundrobin', `  option httpchk GET ${tier.health}`);
    if (tier.sticky) lines.push('  cookie MATE_REPLICA insert indirect nocache httponly');
    if (tier.forwardFor) lines.push('  option forwardfor');
    for (const r of tier.replicas) {
      lines.push(`  server ${r.name} 127.0.0.1:${r.port} check${tier.sticky ? ` cookie ${r.name}` : ''}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

export interface Haproxy {
  pid: number | null;
  stop(): Promise<void>;
}

/** Starts Debian's HAProxy (`/usr/sbin/haproxy`, in the foreground) on the tiers; resolves once its monitor answers. */
export async function startHaproxy(tiers: BalancedTier[], options: { dir: string; monitorPort: number; logDir: string }): Promise<Haproxy> {
  const config = path.join(options.dir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig(tiers, options.monitorPort));
  const out = createWriteStream(path.join(options.logDir, 'haproxy.log'), { flags: 'a' });
  const child: ChildProcess = spawn('/usr/sbin/haproxy', ['-f', config, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  killOnExit(child);
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  let exited = false;
  child.once('exit', () => (exited = true));
  await waitFor(
    async () => {
      if (exited) throw new Error(`haproxy exited at start (see ${path.join(options.logDir, 'haproxy.log')})`);
      return answers(`http://127.0.0.1:${options.monitorPort}/health`);
    },
    { timeoutMs: 15_000, intervalMs: 100, what: 'haproxy answering' },
  );
  return {
    get pid() {
      return exited ? null : (child.pid ?? null);
    },
    async stop() {
      if (exited) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await gone;
    },
  };
}
