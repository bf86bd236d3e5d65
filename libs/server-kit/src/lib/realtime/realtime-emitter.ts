import type { RedisClient } from '../redis/redis';
import { sessionRoom, userRoom, type ServerEventName, type ServerToClientEvents } from '@mate/contracts';
import { REALTIME_STREAM_MAX_LEN, realtimeStreamName } from './realtime.keys';

/** socket.io-adapter's BROADCAST message type and event packet type. */
const BROADCAST = '3';
const EVENT_PACKET = 2;
/** The sender id socket.io-adapter reserves for emitters (not counted as a server). */
const EMITTER_UID = 'emitter';
const MAIN_NAMESPACE = '/';

/**
 * Pushes server → client events to members from any service, without a socket.io server:
 *
 *     await emitter.toUser(recipientId).emit('new_message', message);
 *
 * A push is one XADD into the Redis stream the gateway replicas' `@socket.io/redis-streams-adapter`
 * reads, in the adapter's own BROADCAST format. Every replica delivers it to its local sockets in
 * the room, and because it sits in the stream with an offset, a socket that reconnects (to any
 * replica) within the recovery window receives the pushes it missed (see docs/adr/0005-realtime.md).
 * The promise settles once Redis has the push; it rejects when Redis is unreachable.
 */
export class RealtimeEmitter {
  private readonly stream: string;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
  ) {
    this.stream = realtimeStreamName(prefix);
  }

  /** Every socket of the user (all devices). */
  toUser(userId: string): RealtimeTarget {
    return new RealtimeTarget(this, [userRoom(userId)]);
  }

  /** The sockets of one session (one device). */
  toSession(sessionId: string): RealtimeTarget {
    return new RealtimeTarget(this, [sessionRoom(sessionId)]);
  }

  /** @internal */
  async publish(rooms: string[], event: ServerEventName, args: unknown[]): Promise<string> {
    const data = JSON.stringify({
      packet: { type: EVENT_PACKET, data: [event, ...args], nsp: MAIN_NAMESPACE },
      opts: { rooms, except: [], flags: {} },
    });
    const id = await this.redis.xadd(
      this.stream,
      'MAXLEN',
      '~',
      REALTIME_STREAM_MAX_LEN,
      '*',
      'uid',
      EMITTER_UID,
      'nsp',
      MAIN_NAMESPACE,
      'type',
      BROADCAST,
      'data',
      data,
    );
    return id ?? '';
  }
}

export class RealtimeTarget {
  constructor(
    private readonly emitter: RealtimeEmitter,
    private readonly rooms: string[],
  ) {}

  /** Adds another user's sockets to the same push (both sides of a conversation). */
  andUser(userId: string): RealtimeTarget {
    return new RealtimeTarget(this.emitter, [...this.rooms, userRoom(userId)]);
  }

  /** Resolves to the push's stream offset. */
  emit<E extends ServerEventName>(event: E, ...args: Parameters<ServerToClientEvents[E]>): Promise<string> {
    return this.emitter.publish(this.rooms, event, args);
  }
}
