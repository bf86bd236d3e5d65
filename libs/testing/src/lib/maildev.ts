import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A real SMTP server (maildev) in the test process, on free ports. */
export interface TestMailbox {
  smtpUrl: string;
  smtpPort: number;
  webUrl: string;
  /** Waits for the next email to this address that arrived after `since` (or any time). */
  waitForEmail(to: string, options?: { timeoutMs?: number; subject?: RegExp; since?: Date }): Promise<ReceivedEmail>;
  all(): Promise<ReceivedEmail[]>;
  clear(): Promise<void>;
  stop(): Promise<void>;
}

export interface ReceivedEmail {
  id: string;
  subject: string;
  to: { address: string; name?: string }[];
  from: { address: string; name?: string }[];
  text: string;
  html: string;
  date: string;
  time?: Date;
}

/** Whether this process can listen on 127.0.0.1:`port` right now (it stops listening at once). */
export function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port the system picks (listen on port 0). */
function systemPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The first port of the range the kernel hands out by itself, or null where it cannot be read. */
function ephemeralPortsStart(): number | null {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(start) ? start : null;
  } catch {
    return null;
  }
}

/** Ports freePort chooses from lie at or above this one (clear of the well-known and registered services). */
const OWN_PORTS_FROM = 20_000;

/**
 * A port that is free now and that the system does not hand out by itself: it lies below the
 * ephemeral range, from which the kernel picks the port of every listen(0) and every outgoing
 * connection of every process on the machine. A test that frees its port for a while and takes it
 * again (a redis-server killed for 30 s and restarted, a service restarted on its port) would
 * otherwise find it taken by whatever else ran meanwhile (CI runs the projects' tests side by side),
 * and the restart would fail with EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  const end = ephemeralPortsStart();
  if (end !== null && end - OWN_PORTS_FROM >= 1_000) {
    for (let attempt = 0; attempt < 100; attempt++) {
      const port = randomInt(OWN_PORTS_FROM, end);
      if (await canListen(port)) return port;
    }
  }
  return systemPort();
}

/** Pulls the first link to `path` out of an email body. */
export function linkFrom(email: ReceivedEmail, path: string): string {
  const match = new RegExp(`https?://[^\\s"'<>]*${path.replace(/[/]/g, '\\/')}\\?token=[A-Za-z0-9_-]+`).exec(
    email.text + email.html,
  );
  if (!match) throw new Error(`No ${path} link in email "${email.subject}"`);
  return match[0];
}

export function tokenFrom(link: string): string {
  return new URL(link).searchParams.get('token') ?? '';
}

interface MailDevServer {
  listen(cb: (err?: Error) => void): void;
  close(cb: (err?: Error) => void): void;
  getAllEmail(cb: (err: Error | null, emails: ReceivedEmail[]) => void): void;
  deleteAllEmail(cb: (err?: Error) => void): void;
}

export async function startTestMailbox(): Promise<TestMailbox> {
  const MailDev = require('maildev') as new (config: object) => MailDevServer;
  const smtpPort = await freePort();
  const webPort = await freePort();
  const maildev = new MailDev({ smtp: smtpPort, web: webPort, ip: '127.0.0.1', silent: true, disableWeb: true });
  await new Promise<void>((resolve, reject) => maildev.listen((err) => (err ? reject(err) : resolve())));
  const all = () =>
    new Promise<ReceivedEmail[]>((resolve, reject) =>
      maildev.getAllEmail((err, emails) => (err ? reject(err) : resolve(emails))),
    );
  return {
    smtpPort,
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    webUrl: `http://127.0.0.1:${webPort}`,
    all,
    async waitForEmail(to, { timeoutMs = 15000, subject, since } = {}) {
      const deadline = Date.now() + timeoutMs;
      const wanted = to.toLowerCase();
      while (Date.now() < deadline) {
        const found = (await all()).filter(
          (e) =>
            e.to.some((t) => t.address.toLowerCase() === wanted) &&
            (!subject || subject.test(e.subject)) &&
            (!since || new Date(e.date ?? e.time ?? 0).getTime() >= since.getTime() - 1000),
        );
        if (found.length) return found[found.length - 1];
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`No email to ${to} within ${timeoutMs} ms`);
    },
    clear: () => new Promise<void>((resolve, reject) => maildev.deleteAllEmail((err) => (err ? reject(err) : resolve()))),
    stop: () => new Promise<void>((resolve) => maildev.close(() => resolve())),
  };
}
