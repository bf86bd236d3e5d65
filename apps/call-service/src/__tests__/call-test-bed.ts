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
import { CLOCK, EventConsumer, ManualClock, PresenceReader, type EventOutcome } from '@mate/server-kit';
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
import { CALL_PRESENCE, type CallPresence } from '../call/call-presence';
import { CallSweeper } from '../call/call-sweeper';

const GATEWAY_MAIN = 'apps/gateway/src/main.ts';

export type MemberSocket = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

export interface CallMember {
  userId: string;
  token: string;
  name: string | null;
}

export interface MemberConnection {
  socket: MemberSocket;
  member: CallMember;
  received: { event: ServerEventName; payload: unknown }[];
  emit<E extends ClientEventName>(event: E, payload: ClientEventPayload<E>): Promise<unknown>;
  next<E extends ServerEventName>(
    event: E,
    where?: (payload: ServerEventPayload<E>) => boolean,
  ): Promise<ServerEventPayload<E>>;
  all<E extends ServerEventName>(event: E): ServerEventPayload<E>[];
}

/**
 * The real presence (the kit's PresenceReader over what the real gateway records), minus the
 * members a test holds offline while their sockets stay connected.
 */
export class TestPresence implements CallPresence {
  readonly offline = new Set<string>();
  reader: PresenceReader | null = null;
  async onlineOf(userIds: string[]): Promise<Set<string>> {
    if (!this.reader) throw new Error('presence reader not ready');
    const online = await this.reader.onlineOf(userIds);
    return new Set([...online].filter((id) => !this.offline.has(id)));
  }
}

export interface CallTestBed {
  service: ServiceTestBed;
  gateway: ServiceProcess;
  clock: ManualClock;
  presence: TestPresence;
  sweeper: CallSweeper;
  member(name?: string | null): Promise<CallMember>;
  match(a: CallMember, b: CallMember, pairVersion?: number): Promise<string>;
  pair(a?: string, b?: string): Promise<[CallMember, CallMember]>;
  deliver<N extends EventName>(name: N, payload: EventPayloads[N], version?: number): Promise<EventOutcome>;
  connect(member: CallMember): Promise<MemberConnection>;
  api<T = Record<string, unknown>>(
    member: CallMember | null,
    method: string,
    path: string,
  ): Promise<{ status: number; body: T }>;
  /** `api` with the answer's headers too. */
  apiWithHeaders<T = Record<string, unknown>>(
    member: CallMember | null,
    path: string,
  ): Promise<{ status: number; body: T; headers: Headers }>;
  close(): Promise<void>;
}

export function ackError(answer: unknown): SocketErrorAck {
  if (!isSocketError(answer))
    throw new Error(`expected an error acknowledgement, got ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * call-service on the service test bed (real PostgreSQL and Redis, a manual clock, the sweeper's
 * timer off so tests sweep when they choose) and the real gateway in front of it in its own
 * process: sockets and REST go the way the app goes, events through the real consumer.
 */
export async function startCallTestBed(
  label: string,
  { env = {} }: { env?: TestEnv } = {},
): Promise<CallTestBed> {
  const clock = new ManualClock(new Date());
  const presence = new TestPresence();
  const service = await startServiceTestBed((e) => AppModule.forRoot(e), {
    label,
    env: { CALL_SWEEP_INTERVAL_MS: '0', CALL_SIGNALS_PER_10_SECONDS: '100000', ...env },
    overrides: [
      { provide: CLOCK, useValue: clock },
      { provide: CALL_PRESENCE, useValue: presence },
    ],
  });
  let gateway: ServiceProcess;
  try {
    const port = await freePort();
    gateway = await startServiceProcess(GATEWAY_MAIN, port, {
      REDIS_URL: service.env.REDIS_URL,
      KEY_PREFIX: service.env.KEY_PREFIX,
      JWT_SECRET: service.env.JWT_SECRET,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      WORKERS: 'off',
      OUTBOX_RELAY: 'off',
      CALL_SERVICE_URL: service.url,
      RATE_LIMIT_PER_MINUTE: '100000',
      SOCKET_EVENTS_PER_10_SECONDS: '100000',
      SOCKET_MAX_EVENTS_IN_FLIGHT: '200',
    });
  } catch (e) {
    await service.close();
    throw e;
  }
  presence.reader = service.app.get(PresenceReader);
  const consumer = service.app.get(EventConsumer);
  const sockets: MemberSocket[] = [];
  const profileVersions = new Map<string, number>();

  const deliver: CallTestBed['deliver'] = (name, payload, version) => {
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

  const bed: CallTestBed = {
    service,
    gateway,
    clock,
    presence,
    sweeper: service.app.get(CallSweeper),
    deliver,
    async member(name = `Member ${randomUUID().slice(0, 4)}`) {
      const session = await service.signIn();
      if (name !== null) {
        const version = (profileVersions.get(session.userId) ?? 0) + 1;
        profileVersions.set(session.userId, version);
        await deliver('profile.updated', aProfile(session.userId, name), version);
      }
      return { userId: session.userId, token: session.token, name };
    },
    async match(a, b, pairVersion) {
      const matchId = randomUUID();
      const outcome = await deliver('match.created', {
        matchId,
        userIds: a.userId < b.userId ? [a.userId, b.userId] : [b.userId, a.userId],
        createdAt: new Date().toISOString(),
        ...(pairVersion === undefined ? {} : { pairVersion }),
      } as EventPayloads['match.created']);
      if (outcome !== 'handled') throw new Error(`match.created was ${outcome}`);
      return matchId;
    },
    async pair(a = 'Ann', b = 'Bob') {
      const [x, y] = [await bed.member(a), await bed.member(b)];
      await bed.match(x, y);
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
          (
            socket as unknown as {
              timeout(ms: number): { emitWithAck(e: string, p: unknown): Promise<unknown> };
            }
          )
            .timeout(15_000)
            .emitWithAck(event, payload),
        async next(event, where = () => true) {
          const index = await waitFor(
            async () => {
              const i = received.findIndex(
                (r, n) =>
                  !taken.has(n) && r.event === event && where(r.payload as ServerEventPayload<typeof event>),
              );
              return i >= 0 ? i + 1 : null;
            },
            { timeoutMs: 10_000, intervalMs: 10, what: `${event} on ${member.userId}` },
          );
          taken.add(index - 1);
          return received[index - 1].payload as ServerEventPayload<typeof event>;
        },
        all(event) {
          return received.filter((r) => r.event === event).map((r) => r.payload) as ServerEventPayload<
            typeof event
          >[];
        },
      };
    },
    async api<T>(member: CallMember | null, method: string, path: string) {
      const res = await call<T>(gateway.url, method, path, { token: member?.token });
      return { status: res.status, body: res.body };
    },
    async apiWithHeaders<T>(member: CallMember | null, path: string) {
      return call<T>(gateway.url, 'GET', path, { token: member?.token });
    },
    async close() {
      for (const s of sockets.splice(0)) s.disconnect();
      await gateway.stop();
      await service.close();
    },
  };
  return bed;
}

export function aProfile(userId: string, name: string | null): EventPayloads['profile.updated'] {
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
    hasPhoto: false,
    profilePicture: null,
    isVerified: true,
    onboardingCompleted: true,
    updatedAt: new Date().toISOString(),
  };
}
