import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  ErrorCode,
  INTERNAL_TOKEN_HEADER,
  REQUEST_ID_HEADER,
  SOCKET_EVENT_OWNERS,
  SocketMessages,
  type ClientEventName,
  type ServiceName,
  type SocketAck,
} from '@mate/contracts';
import { SOCKET_EVENTS_PATH } from '@mate/server-kit';
import type { SocketIdentity } from './socket-auth';

export interface EventRouterOptions {
  /** Base URL of each service on the internal network. */
  serviceUrls: Partial<Record<ServiceName, string>>;
  /** The deployment's `INTERNAL_TOKEN`: services serve `/internal/**` only to a caller holding it. */
  internalToken: string;
  timeoutMs: number;
  logger: Logger;
}

/**
 * Delivers a client event to the service that owns it: `POST <service>/internal/socket-events/<event>`
 * with the sender's bearer token (the service's guard checks the session again, as for any call),
 * the internal credential (only the gateway may deliver events) and a fresh request id. The
 * answer is always an acknowledgement: the service's result, its `{ error, code }`, or
 * `{ error }` when it is down or slower than the timeout. Why HTTP and not
 * Nest's Redis transport or a queue: docs/adr/0005-realtime.md.
 */
export class EventRouter {
  constructor(private readonly options: EventRouterOptions) {}

  async route(event: ClientEventName, payload: unknown, sender: SocketIdentity): Promise<SocketAck<unknown>> {
    const service = SOCKET_EVENT_OWNERS[event];
    const base = this.options.serviceUrls[service];
    const requestId = randomUUID();
    const unavailable = { error: SocketMessages.serviceUnavailable, code: ErrorCode.ServiceUnavailable, requestId };
    if (!base) return unavailable;
    const started = Date.now();
    try {
      const res = await fetch(`${base.replace(/\/$/, '')}${SOCKET_EVENTS_PATH}/${encodeURIComponent(event)}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${sender.token}`,
          [INTERNAL_TOKEN_HEADER]: this.options.internalToken,
          [REQUEST_ID_HEADER]: requestId,
        },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
      if (res.ok) return body ?? { ok: true };
      if (body && typeof body.error === 'string') {
        return { error: body.error, code: typeof body.code === 'string' ? body.code : undefined, requestId };
      }
      this.options.logger.warn({ requestId, event, service, status: res.status }, 'socket event answered without an error body');
      return unavailable;
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      this.options.logger.warn(
        { requestId, event, service, userId: sender.principal.userId, ms: Date.now() - started, err: { name: (err as Error).name, message: (err as Error).message } },
        timedOut ? 'socket event timed out' : 'socket event delivery failed',
      );
      return timedOut ? { error: SocketMessages.serviceTimeout, code: ErrorCode.ServiceUnavailable, requestId } : unavailable;
    }
  }
}
