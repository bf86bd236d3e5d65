import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import {
  INTERNAL_TOKEN_HEADER,
  SERVICES,
  type EventEnvelope,
  type EventName,
  type EventPayloads,
  type PairMessageSnapshot,
} from '@mate/contracts';
import { EventConsumer, type EventOutcome } from '@mate/server-kit';
import { aProfile, call, eventEnvelope, startServiceTestBed, type ServiceTestBed, type TestEnv } from '@mate/server-kit/testing';
import { AppModule } from '../app.module';

export { aProfile } from '@mate/server-kit/testing';

/**
 * What a member's profile.updated carries here beyond the kit's `aProfile`: a bio the report's
 * snapshot keeps, and a place it must leave out.
 */
const EVIDENCE_DETAILS = { bio: 'Hello there', latitude: 40.7128, longitude: -74.006, locationText: 'New York, NY' };

/** The internal credential the test bed's safety-service sends and the chat stub checks. */
export const TEST_INTERNAL_TOKEN = 'safety-test-bed-internal-credential-0123';

/** A member with a live session, known to safety (profile.updated delivered) unless made unknown. */
export interface SafetyMember {
  userId: string;
  token: string;
  name: string | null;
}

/**
 * A minimal real HTTP server that answers chat-service's internal snapshot route as the contract
 * says (libs/contracts chat.ts, PairMessagesSnapshotDto): it stands in for chat-service at the
 * service boundary, so these tests do not depend on chat's database and consumers (chat's own
 * tests cover the route itself). It checks the internal credential like the kit's middleware, and
 * it can be stopped, restarted on the same port, and made to hang.
 */
export class ChatStub {
  private server: http.Server | null = null;
  private readonly open = new Set<http.ServerResponse>();
  port = 0;
  /** Messages it knows, in any order. */
  messages: PairMessageSnapshot[] = [];
  /** When true it never answers (a slow chat). */
  hang = false;
  /** Members whose pairs it refuses (400), as chat would a request it cannot serve. */
  readonly refused = new Set<string>();
  /** Requests it received: path, query and whether they carried the credential. */
  readonly requests: { path: string; query: URLSearchParams; trusted: boolean; requestId?: string }[] = [];

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = http.createServer((req, res) => this.answer(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const res of this.open) res.destroy();
    this.open.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A message between two members, `minutesAgo` before now. */
  say(from: SafetyMember, to: SafetyMember, content: string, minutesAgo = 0): PairMessageSnapshot {
    const message = {
      id: randomUUID(),
      seq: this.messages.length + 1,
      senderId: from.userId,
      recipientId: to.userId,
      content,
      createdAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    };
    this.messages.push(message);
    return message;
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://stub');
    const trusted = req.headers[INTERNAL_TOKEN_HEADER] === TEST_INTERNAL_TOKEN;
    const requestId = req.headers['x-request-id'] as string | undefined;
    this.requests.push({ path: url.pathname, query: url.searchParams, trusted, requestId });
    if (this.hang) {
      this.open.add(res);
      return;
    }
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (!trusted) return json(403, { error: 'This route is for the platform’s own services only' });
    const match = /^\/internal\/chat\/pairs\/([0-9a-f-]{36})\/([0-9a-f-]{36})\/messages$/.exec(url.pathname);
    if (!match) return json(404, { error: 'Not found' });
    const pair = new Set([match[1], match[2]]);
    if ([...pair].some((id) => this.refused.has(id))) return json(400, { error: 'Invalid request' });
    const before = new Date(url.searchParams.get('before') ?? Date.now());
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const messages = this.messages
      .filter((m) => pair.has(m.senderId) && pair.has(m.recipientId) && new Date(m.createdAt) < before)
      .sort((x, y) => x.createdAt.localeCompare(y.createdAt))
      .slice(-limit);
    json(200, { messages });
  }
}

export interface SafetyTestBed {
  bed: ServiceTestBed;
  chat: ChatStub;
  /** A member with a session; their profile.updated delivered unless `known` is false. */
  member(options?: { name?: string | null; photo?: string | null; known?: boolean }): Promise<SafetyMember>;
  /** Delivers match.created for the two through safety's consumer; answers the match id. */
  /** Delivers matching's match.created; `pairVersion` omitted is an event from before versions (times compared). */
  match(a: SafetyMember, b: SafetyMember, options?: { matchId?: string; createdAt?: Date; pairVersion?: number }): Promise<string>;
  /** Delivers one event through safety's consumer (profile.updated with `version` as its aggregate version). */
  deliver<N extends EventName>(name: N, payload: EventPayloads[N], version?: number): Promise<EventOutcome>;
  /** JSON over HTTP to safety-service as the member. */
  api<T = Record<string, unknown>>(member: SafetyMember | null, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** The events in safety's outbox, oldest first (optionally of one name). */
  events<N extends EventName>(name?: N): Promise<EventEnvelope<N>[]>;
  close(): Promise<void>;
}

/**
 * safety-service on the service test bed (real PostgreSQL and Redis) with the chat stub as its
 * CHAT_SERVICE_URL (unless `env` names another, e.g. a real chat-service).
 */
export async function startSafetyTestBed(label: string, { env = {} }: { env?: TestEnv } = {}): Promise<SafetyTestBed> {
  const chat = new ChatStub();
  await chat.start();
  let bed: ServiceTestBed;
  try {
    bed = await startServiceTestBed((e) => AppModule.forRoot(e), {
      label,
      env: { CHAT_SERVICE_URL: chat.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, ...env },
    });
  } catch (e) {
    await chat.stop();
    throw e;
  }
  const consumer = bed.app.get(EventConsumer);
  const versions = new Map<string, number>();

  const deliver: SafetyTestBed['deliver'] = (name, payload, version) => {
    const producer = name === 'match.created' ? SERVICES.matching : SERVICES.profile;
    const envelope = eventEnvelope(producer, name, payload);
    if (version !== undefined) {
      Object.assign(envelope, { aggregateType: 'profile', aggregateId: (payload as { userId: string }).userId, aggregateVersion: version });
    }
    return consumer.apply(envelope);
  };

  return {
    bed,
    chat,
    deliver,
    async member({ name = `Member ${randomUUID().slice(0, 4)}`, photo = null, known = true } = {}) {
      const session = await bed.signIn();
      if (known) {
        const version = (versions.get(session.userId) ?? 0) + 1;
        versions.set(session.userId, version);
        const outcome = await deliver('profile.updated', { ...aProfile(session.userId, name, photo), ...EVIDENCE_DETAILS }, version);
        if (outcome !== 'handled') throw new Error(`profile.updated was ${outcome}`);
      }
      return { userId: session.userId, token: session.token, name };
    },
    async match(a, b, { matchId = randomUUID(), createdAt = new Date(), pairVersion } = {}) {
      const outcome = await deliver('match.created', {
        matchId,
        userIds: a.userId < b.userId ? [a.userId, b.userId] : [b.userId, a.userId],
        createdAt: createdAt.toISOString(),
        ...(pairVersion === undefined ? {} : { pairVersion }),
      });
      if (outcome !== 'handled') throw new Error(`match.created was ${outcome}`);
      return matchId;
    },
    async api<T>(member: SafetyMember | null, method: string, path: string, body?: unknown) {
      const res = await call<T>(bed.url, method, path, { token: member?.token, body });
      return { status: res.status, body: res.body };
    },
    async events<N extends EventName>(name?: N) {
      const rows: { body: EventEnvelope<N> }[] = await bed.dataSource.query(
        `SELECT body FROM outbox WHERE kind = 'event' AND ($1::text IS NULL OR name = $1) ORDER BY created_at, id`,
        [name ?? null],
      );
      return rows.map((r) => r.body);
    },
    async close() {
      try {
        await bed.close();
      } finally {
        await chat.stop();
      }
    },
  };
}
