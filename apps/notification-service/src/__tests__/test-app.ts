import { createServer, connect, type Server, type Socket } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { startService, type TestEnv } from '@mate/server-kit/testing';
import { AppModule } from '../app.module';

export { waitFor, type TestEnv } from '@mate/server-kit/testing';

/** notification-service migrated and listening on a free port, as main.ts configures it. */
export async function startNotificationService(env: TestEnv): Promise<NestExpressApplication> {
  return (await startService((e) => AppModule.forRoot(e), env)).app;
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
