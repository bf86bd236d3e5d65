import { randomUUID } from 'node:crypto';
import { io as connectSocket, type Socket as ClientSocket } from 'socket.io-client';
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
import { freePort } from '@mate/testing';
import { EventConsumer, type EventOutcome } from '../lib/events/event-consumer';
import { call, eventEnvelope, waitFor, type TestEnv } from './service-app';
import { startServiceProcess, type ServiceProcess } from './service-process';
import type { ServiceTestBed } from './service-test-bed';

/** The gateway's entry point, run from source in its own process. */
const GATEWAY_MAIN = 'apps/gateway/src/main.ts';

export type MemberSocket = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

/** A member with a live session, their profile known to the service (profile.updated delivered) unless `name` is null. */
export interface TestMember {
  userId: string;
  sessionId: string;
  token: string;
  name: string | null;
}

/** One connected socket and everything the server pushed to it, in arrival order. */
export interface MemberConnection {
  socket: MemberSocket;
  member: TestMember;
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

export type DeliverEvent = <N extends EventName>(
  name: N,
  payload: EventPayloads[N],
  version?: number,
) => Promise<EventOutcome>;

export interface GatewayTestBed {
  /** The real gateway, in its own process (from source), routing to the service on the bed. */
  gateway: ServiceProcess;
  /**
   * Delivers one event through the service's consumer, from its catalogue producer; with `version`,
   * as that version of its aggregate (profile.updated: the profile; safety's pair events: the pair).
   */
  deliver: DeliverEvent;
  /** A member with a session and, unless `name` is null, a profile.updated (name) delivered through the real consumer. */
  member(name?: string | null): Promise<TestMember>;
  /**
   * Delivers match.created for the pair through the consumer (a new match id unless given; with
   * `pairVersion`, made under that pair version); fails unless it was handled.
   */
  match(a: TestMember, b: TestMember, options?: { matchId?: string; pairVersion?: number }): Promise<string>;
  /** Two new members, matched. */
  pair(a?: string, b?: string): Promise<[TestMember, TestMember]>;
  /** A socket through the gateway, connected (the server's `connected` arrived). */
  connect(member: TestMember): Promise<MemberConnection>;
  /** JSON over HTTP through the gateway, as the member. */
  api<T = Record<string, unknown>>(
    member: TestMember | null,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }>;
  /** Disconnects every socket, stops the gateway, then closes the service's bed (its database and Redis keys go). */
  close(): Promise<void>;
}

/** The acknowledgement as a socket error, or a failure saying what came instead. */
export function ackError(answer: unknown): SocketErrorAck {
  if (!isSocketError(answer))
    throw new Error(`expected an error acknowledgement, got ${JSON.stringify(answer)}`);
  return answer;
}

/** Delivers events through `consumer` as their catalogue producer sends them (DeliverEvent). */
export function catalogueDelivery(consumer: EventConsumer): DeliverEvent {
  return (name, payload, version) => {
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
}

/** A whole `profile.updated` payload for a member, as profile-service sends it. */
export function aProfile(
  userId: string,
  name: string | null,
  profilePicture: string | null = null,
): EventPayloads['profile.updated'] {
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

/** The gateway in its own process, in front of the service (same Redis prefix and JWT secret), limits out of the way. */
async function startGateway(service: ServiceTestBed, routes: TestEnv): Promise<ServiceProcess> {
  return startServiceProcess(GATEWAY_MAIN, await freePort(), {
    REDIS_URL: service.env.REDIS_URL,
    KEY_PREFIX: service.env.KEY_PREFIX,
    JWT_SECRET: service.env.JWT_SECRET,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    WORKERS: 'off',
    OUTBOX_RELAY: 'off',
    RATE_LIMIT_PER_MINUTE: '100000',
    SOCKET_EVENTS_PER_10_SECONDS: '100000',
    SOCKET_MAX_EVENTS_IN_FLIGHT: '200',
    ...routes,
  });
}

/**
 * The real gateway in front of a service on its test bed (same Redis prefix and JWT secret), so a
 * test goes the way the app goes: socket.io and REST through the gateway, events through the
 * service's real consumer. `routes` names the service to the gateway (`{ CHAT_SERVICE_URL: bed.url }`).
 * The returned bed owns `service`: its close closes both (and a gateway that fails to start closes it too).
 */
export async function startGatewayTestBed(service: ServiceTestBed, routes: TestEnv): Promise<GatewayTestBed> {
  const gateway = await startGateway(service, routes).catch(async (e: unknown) => {
    await service.close();
    throw e;
  });
  const deliver = catalogueDelivery(service.app.get(EventConsumer));
  const profileVersions = new Map<string, number>();
  const sockets: MemberSocket[] = [];

  const bed: GatewayTestBed = {
    gateway,
    deliver,
    async member(name = `Member ${randomUUID().slice(0, 4)}`) {
      const session = await service.signIn();
      if (name !== null) {
        const version = (profileVersions.get(session.userId) ?? 0) + 1;
        profileVersions.set(session.userId, version);
        await deliver('profile.updated', aProfile(session.userId, name), version);
      }
      return { userId: session.userId, sessionId: session.sessionId, token: session.token, name };
    },
    async match(a, b, { matchId = randomUUID(), pairVersion } = {}) {
      const outcome = await deliver('match.created', {
        matchId,
        userIds: a.userId < b.userId ? [a.userId, b.userId] : [b.userId, a.userId],
        createdAt: new Date().toISOString(),
        ...(pairVersion === undefined ? {} : { pairVersion }),
      });
      if (outcome !== 'handled') throw new Error(`match.created was ${outcome}`);
      return matchId;
    },
    async pair(a = 'Ann', b = 'Bob') {
      const [x, y] = [await bed.member(a), await bed.member(b)];
      await bed.match(x, y);
      return [x, y];
    },
    async connect(member) {
      const socket: MemberSocket = connectSocket(gateway.url, {
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
    async api<T>(member: TestMember | null, method: string, path: string, body?: unknown) {
      const res = await call<T>(gateway.url, method, path, { token: member?.token, body });
      return { status: res.status, body: res.body };
    },
    async close() {
      for (const s of sockets.splice(0)) s.disconnect();
      try {
        await gateway.stop();
      } finally {
        await service.close();
      }
    },
  };
  return bed;
}
