import { randomUUID } from 'node:crypto';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import {
  EVENT_CATALOGUE,
  SOCKET_PATH,
  isSocketError,
  type ClientEventName,
  type ClientEventPayload,
  type ClientToServerEvents,
  type EventName,
  type EventPayloads,
  type ServerEventName,
  type ServerEventPayload,
  type ServerToClientEvents,
  type SocketErrorAck,
} from '@mate/contracts';
import { EventConsumer, SessionStore, type EventOutcome } from '@mate/server-kit';
import {
  call,
  eventEnvelope,
  startServiceProcess,
  startServiceTestBed,
  waitFor,
  type ServiceProcess,
  type ServiceTestBed,
  type TestEnv,
} from '@mate/server-kit/testing';
import { freePort } from '@mate/testing';
import { AppModule } from '../app.module';

const GATEWAY_MAIN = 'apps/gateway/src/main.ts';

export type MemberSocket = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

/** A member with a live session, their profile known to chat (profile.updated delivered). */
export interface ChatMember {
  userId: string;
  sessionId: string;
  token: string;
  name: string | null;
}

/** One connected socket and everything the server pushed to it, in arrival order. */
export interface MemberConnection {
  socket: MemberSocket;
  member: ChatMember;
  received: { event: ServerEventName; payload: unknown }[];
  /** Emits a client event and resolves with its acknowledgement (a result or `{ error }`). */
  emit<E extends ClientEventName>(event: E, payload: ClientEventPayload<E>): Promise<unknown>;
  /** Waits for a push of `event` (the first matching `where` not yet taken by an earlier wait). */
  next<E extends ServerEventName>(
    event: E,
    where?: (payload: ServerEventPayload<E>) => boolean,
  ): Promise<ServerEventPayload<E>>;
  /** The pushes of `event` received so far. */
  all<E extends ServerEventName>(event: E): ServerEventPayload<E>[];
}

export interface ChatTestBed {
  /** chat-service in this process on a fresh database and Redis prefix. */
  chat: ServiceTestBed;
  /** The real gateway, in its own process (from source), routing /api/chat and the socket events to chat. */
  gateway: ServiceProcess;
  sessions: SessionStore;
  /** A member with a session and a profile.updated (name) delivered through the real consumer. */
  member(name?: string | null): Promise<ChatMember>;
  /** Delivers match.created for the pair through the consumer: their conversation opens. */
  match(a: ChatMember, b: ChatMember, matchId?: string): Promise<string>;
  /** Two new members, matched (their conversation open). */
  pair(a?: string, b?: string): Promise<[ChatMember, ChatMember]>;
  /**
   * Delivers one event through chat's consumer, from its catalogue producer; with `version`, as
   * that version of its aggregate (profile.updated: the profile; safety's pair events: the pair).
   */
  deliver<N extends EventName>(name: N, payload: EventPayloads[N], version?: number): Promise<EventOutcome>;
  /** A socket through the gateway, connected (the server's `connected` arrived). */
  connect(member: ChatMember): Promise<MemberConnection>;
  /** JSON over HTTP through the gateway, as the member. */
  api<T = Record<string, unknown>>(member: ChatMember | null, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Disconnects every socket, stops the gateway, drops chat's database and Redis keys. */
  close(): Promise<void>;
}

export function ackError(answer: unknown): SocketErrorAck {
  if (!isSocketError(answer)) throw new Error(`expected an error acknowledgement, got ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * chat-service on the service test bed and the real gateway in front of it (same Redis prefix and
 * JWT secret), so every test goes the way the app goes: socket.io through the gateway, REST
 * through the gateway, events through chat's real consumer.
 */
export async function startChatTestBed(
  label: string,
  { env = {}, overrides = [] }: { env?: TestEnv; overrides?: { provide: unknown; useValue: unknown }[] } = {},
): Promise<ChatTestBed> {
  const chat = await startServiceTestBed((e) => AppModule.forRoot(e), {
    label,
    env: { CHAT_MESSAGES_PER_10_SECONDS: '100000', ...env },
    overrides,
  });
  let gateway: ServiceProcess;
  try {
    const port = await freePort();
    gateway = await startServiceProcess(GATEWAY_MAIN, port, {
      REDIS_URL: chat.env.REDIS_URL,
      KEY_PREFIX: chat.env.KEY_PREFIX,
      JWT_SECRET: chat.env.JWT_SECRET,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      WORKERS: 'off',
      OUTBOX_RELAY: 'off',
      CHAT_SERVICE_URL: chat.url,
      RATE_LIMIT_PER_MINUTE: '100000',
      SOCKET_EVENTS_PER_10_SECONDS: '100000',
      SOCKET_MAX_EVENTS_IN_FLIGHT: '200',
    });
  } catch (e) {
    await chat.close();
    throw e;
  }
  const consumer = chat.app.get(EventConsumer);
  const sessions = chat.app.get(SessionStore);
  const profileVersions = new Map<string, number>();
  const sockets: MemberSocket[] = [];

  const deliver: ChatTestBed['deliver'] = (name, payload, version) => {
    const definition = EVENT_CATALOGUE[name];
    const envelope = eventEnvelope(definition.producer, name, payload);
    const aggregate = definition.aggregate;
    if (version !== undefined && aggregate) {
      Object.assign(envelope, {
        aggregateType: aggregate.type,
        aggregateId: (payload as unknown as Record<string, unknown>)[aggregate.idField],
        aggregateVersion: version,
      });
    }
    return consumer.apply(envelope);
  };

  const testBed: ChatTestBed = {
    chat,
    gateway,
    sessions,
    deliver,
    async member(name = `Member ${randomUUID().slice(0, 4)}`) {
      const session = await chat.signIn();
      if (name !== null) {
        const version = (profileVersions.get(session.userId) ?? 0) + 1;
        profileVersions.set(session.userId, version);
        await deliver('profile.updated', aProfile(session.userId, name), version);
      }
      return { userId: session.userId, sessionId: session.sessionId, token: session.token, name };
    },
    async match(a, b, matchId = randomUUID()) {
      const outcome = await deliver('match.created', {
        matchId,
        userIds: a.userId < b.userId ? [a.userId, b.userId] : [b.userId, a.userId],
        createdAt: new Date().toISOString(),
      });
      if (outcome !== 'handled') throw new Error(`match.created was ${outcome}`);
      return matchId;
    },
    async pair(a = 'Ann', b = 'Bob') {
      const [x, y] = [await testBed.member(a), await testBed.member(b)];
      await testBed.match(x, y);
      return [x, y];
    },
    async connect(member) {
      const socket: MemberSocket = connect(gateway.url, {
        path: SOCKET_PATH,
        auth: { token: member.token },
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      sockets.push(socket);
      const received: MemberConnection['received'] = [];
      const taken = new Set<number>();
      socket.onAny((event: ServerEventName, payload: unknown) => received.push({ event, payload }));
      await new Promise<void>((resolve, reject) => {
        socket.once('connected', () => resolve());
        socket.once('connect_error', reject);
      });
      return {
        socket,
        member,
        received,
        emit: (event, payload) =>
          (socket as unknown as { timeout(ms: number): { emitWithAck(e: string, p: unknown): Promise<unknown> } })
            .timeout(15_000)
            .emitWithAck(event, payload),
        async next(event, where = () => true) {
          const index = await waitFor(
            async () => {
              const i = received.findIndex(
                (r, n) => !taken.has(n) && r.event === event && where(r.payload as ServerEventPayload<typeof event>),
              );
              return i >= 0 ? i + 1 : null;
            },
            { timeoutMs: 10_000, intervalMs: 10, what: `${event} on ${member.userId}` },
          );
          taken.add(index - 1);
          return received[index - 1].payload as ServerEventPayload<typeof event>;
        },
        all(event) {
          return received.filter((r) => r.event === event).map((r) => r.payload) as ServerEventPayload<typeof event>[];
        },
      };
    },
    async api<T>(member: ChatMember | null, method: string, path: string, body?: unknown) {
      const res = await call<T>(gateway.url, method, path, { token: member?.token, body });
      return { status: res.status, body: res.body };
    },
    async close() {
      for (const s of sockets.splice(0)) s.disconnect();
      await gateway.stop();
      await chat.close();
    },
  };
  return testBed;
}

/** A whole `profile.updated` payload for a member, as profile-service sends it. */
export function aProfile(userId: string, name: string | null, profilePicture: string | null = null): EventPayloads['profile.updated'] {
  return {
    userId,
    name,
    age: 30,
    gender: 'female',
    lookingFor: 'relationship',
    interests: [],
    height: null,
    education: null,
    latitude: null,
    longitude: null,
    locationText: null,
    hasPhoto: profilePicture !== null,
    profilePicture,
    isVerified: true,
    onboardingCompleted: true,
    updatedAt: new Date().toISOString(),
  };
}
