import { createServer, connect, type Server, type Socket } from 'node:net';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createHttpApp, runMigrations } from '@mate/server-kit';
import { AppModule } from '../app.module';

export type TestEnv = Record<string, string>;

/** Applies the migrations the way `main.js migrate` does: no workers, no relay. */
export async function migrate(env: TestEnv): Promise<void> {
  const ctx = await NestFactory.createApplicationContext(
    AppModule.forRoot({ ...env, WORKERS: 'off', OUTBOX_RELAY: 'off' }),
    { logger: false },
  );
  try {
    await runMigrations(ctx);
  } finally {
    await ctx.close();
  }
}

export async function startNotificationService(env: TestEnv): Promise<NestExpressApplication> {
  await migrate(env);
  return createHttpApp(AppModule.forRoot(env));
}

/**
 * A TCP relay in front of the test SMTP server that a test can switch off (connections refused,
 * like an SMTP server that is down) and on again, on the same port.
 */
export class SmtpGate {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly targetPort: number,
  ) {}

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async open(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function waitFor<T>(
  probe: () => Promise<T | null | undefined | false>,
  { timeoutMs = 15000, intervalMs = 50, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
