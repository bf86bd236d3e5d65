import { request as httpRequest } from 'node:http';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { QueueName, type EmailJobData, type JobEnvelope } from '@mate/contracts';
import { CLOCK, ManualClock } from '@mate/server-kit';
import { call, startServiceTestBed, waitFor, type ServiceTestBed, type TestEnv } from '@mate/server-kit/testing';
import { AppModule } from '../app.module';

export const PASSWORD = 'correct horse battery';

export interface RegisteredMember {
  token: string;
  user: { id: string; email: string; role: string; isVerified: boolean };
}

type CallOptions = Parameters<typeof call>[3];
type Answer<T> = { status: number; body: T; headers: Headers };

/**
 * auth-service on the service test bed with a manual clock, and what its tests keep asking: the
 * emails it queued for notification-service, and members registered (and verified) through its API.
 */
export interface AuthTestBed {
  svc: ServiceTestBed;
  url: string;
  clock: ManualClock;
  call<T = Record<string, unknown>>(method: string, path: string, options?: CallOptions): Promise<Answer<T>>;
  /** The same call made from another client address (a loopback alias such as 127.0.0.2). */
  callFrom<T = Record<string, unknown>>(address: string, method: string, path: string, options?: CallOptions): Promise<Answer<T>>;
  /** The emails queued for this address, oldest first. */
  emailsTo(address: string): Promise<EmailJobData[]>;
  /** The `after`-th email of this template to this address, once it is queued. */
  nextEmail(address: string, template: EmailJobData['template'], after?: number): Promise<EmailJobData>;
  register(email: string, extra?: Record<string, unknown>): Promise<RegisteredMember>;
  /** Registers and opens the emailed verification link; the sign-up session is verified from then on. */
  registerVerified(email: string, extra?: Record<string, unknown>): Promise<RegisteredMember>;
  close(): Promise<void>;
}

export const tokenOf = (link: string | undefined) => new URL(link ?? '').searchParams.get('token') ?? '';

export async function startAuthTestBed(label: string, env: TestEnv = {}): Promise<AuthTestBed> {
  const clock = new ManualClock(new Date());
  const svc = await startServiceTestBed((e) => AppModule.forRoot(e), {
    label,
    env: { WEB_URL: 'http://app.mate.test', IP_RATE_LIMIT_MULTIPLIER: '10', ...env },
    overrides: [{ provide: CLOCK, useValue: clock }],
  });
  const queueConnection = new Redis(svc.env.REDIS_URL, { maxRetriesPerRequest: null });
  const emailQueue = new Queue(QueueName.Email, { connection: queueConnection, prefix: svc.env.KEY_PREFIX });

  async function emailsTo(address: string): Promise<EmailJobData[]> {
    const jobs = await emailQueue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
    return jobs
      .map((j) => ({ timestamp: j.timestamp, email: (j.data as JobEnvelope<QueueName.Email>).data }))
      .filter((j) => j.email.to === address)
      .sort((a, b) => a.timestamp - b.timestamp)
      .map((j) => j.email);
  }
  const nextEmail = (address: string, template: EmailJobData['template'], after = 0) =>
    waitFor(async () => (await emailsTo(address)).filter((e) => e.template === template)[after], {
      what: `${template} email to ${address}`,
    });

  async function register(email: string, extra: Record<string, unknown> = {}): Promise<RegisteredMember> {
    const res = await call<RegisteredMember>(svc.url, 'POST', '/api/auth/register', { body: { email, password: PASSWORD, ...extra } });
    if (res.status !== 201) throw new Error(`register ${email}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  return {
    svc,
    url: svc.url,
    clock,
    call: (method, path, options) => call(svc.url, method, path, options),
    callFrom: (address, method, path, options) => callFrom(svc.url, address, method, path, options),
    emailsTo,
    nextEmail,
    register,
    async registerVerified(email, extra) {
      const member = await register(email, extra);
      const link = (await nextEmail(email, 'verify-email')).link;
      const res = await call(svc.url, 'POST', '/api/verification/verify', { body: { token: tokenOf(link) } });
      if (res.status !== 200) throw new Error(`verify ${email}: ${res.status} ${JSON.stringify(res.body)}`);
      return { ...member, user: { ...member.user, isVerified: true } };
    },
    async close() {
      await emailQueue.close();
      await queueConnection.quit();
      await svc.close();
    },
  };
}

/** JSON over HTTP from a chosen local address, so per-address rules can be tested on one machine. */
function callFrom<T>(baseUrl: string, localAddress: string, method: string, path: string, { body, token, headers = {} }: CallOptions = {}) {
  const url = new URL(path, baseUrl);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<Answer<T>>((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        localAddress,
        headers: {
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (typeof value === 'string') answerHeaders.set(name, value);
          }
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, body: parsed as T, headers: answerHeaders });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
