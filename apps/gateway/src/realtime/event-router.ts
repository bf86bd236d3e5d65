import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
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
import { SOCKET_EVENT_BATCH_MAX, SOCKET_EVENTS_PATH, type SocketEventBatchItem, type SocketEventBatchResult } from '@mate/server-kit';
import type { SocketIdentity } from './socket-auth';

export interface EventRouterOptions {
  /** Base URL of each service on the internal network. */
  serviceUrls: Partial<Record<ServiceName, string>>;
  /** The deployment's `INTERNAL_TOKEN`: services serve `/internal/**` only to a caller holding it. */
  internalToken: string;
  /** How long an event may wait for its answer, from the moment it arrives (queueing included). */
  timeoutMs: number;
  logger: Logger;
  /** Requests in flight to one service at a time; events arriving meanwhile queue and go together. Default 2 (the gateway sets SOCKET_EVENT_REQUESTS_IN_FLIGHT, 4). */
  requestsInFlight?: number;
  /** Most events in one request (at most SOCKET_EVENT_BATCH_MAX, the services' own limit). */
  batchMax?: number;
}

/** An event waiting for its answer. */
interface Pending {
  event: ClientEventName;
  userId: string;
  requestId: string;
  /** The batch item, serialized once. */
  json: string;
  /** Its size in UTF-8 (what the service's body limit counts). */
  bytes: number;
  deadline: number;
  answer: (ack: SocketAck<unknown>) => void;
}

/** The events on their way to one service. */
interface Lane {
  service: ServiceName;
  url: URL;
  agent: http.Agent;
  inFlight: number;
  queue: Pending[];
}

/**
 * Under the services' 100 KB body limit with room for the wrapper: a batch stops growing here. An
 * event bigger than this alone still goes (alone), and the service answers it as it would have.
 */
const BATCH_MAX_BYTES = 90 * 1024;

/**
 * Delivers client events to the services that own them: `POST <service>/internal/socket-events`
 * with `{ items }`, each item the event, its payload (as JSON text), the sender's bearer token
 * (the service authenticates every item as its guard authenticates a request: signature, live
 * session, verified account) and a fresh request id; the internal credential says the gateway
 * sent it. Each item's answer is its acknowledgement: the service's result, its `{ error, code }`,
 * or `{ error }` when the service is down or slower than the timeout.
 *
 * Micro-batching (docs/adr/0005-realtime.md): an event goes out at once while fewer than
 * `requestsInFlight` requests to its service are in flight; otherwise it queues, and when a
 * request comes back the queue goes in one request (up to `batchMax` events). So an idle service
 * sees every event alone, without delay, and a busy one gets fewer, larger requests instead of a
 * pile of small ones (the per-request costs, HTTP, routing and the session round trip, were most of
 * a chat message's CPU). An event that waited longer than the timeout is answered without being sent.
 * HTTP over a keep-alive agent (node:http, one timer per request). Why HTTP and not Nest's Redis
 * transport or a queue: docs/adr/0005-realtime.md.
 */
export class EventRouter {
  private readonly lanes = new Map<ServiceName, Lane>();
  private readonly requestsInFlight: number;
  private readonly batchMax: number;

  constructor(private readonly options: EventRouterOptions) {
    this.requestsInFlight = Math.max(1, options.requestsInFlight ?? 2);
    this.batchMax = Math.min(SOCKET_EVENT_BATCH_MAX, Math.max(1, options.batchMax ?? SOCKET_EVENT_BATCH_MAX));
  }

  route(event: ClientEventName, payload: unknown, sender: SocketIdentity): Promise<SocketAck<unknown>> {
    const requestId = randomUUID();
    const lane = this.lane(SOCKET_EVENT_OWNERS[event]);
    if (!lane) return Promise.resolve(this.unavailable(requestId));
    const item: SocketEventBatchItem = { event, token: sender.token, requestId };
    const text = payload === undefined ? undefined : JSON.stringify(payload);
    if (text !== undefined) item.payload = text;
    const json = JSON.stringify(item);
    return new Promise((answer) => {
      lane.queue.push({
        event,
        userId: sender.principal.userId,
        requestId,
        json,
        bytes: Buffer.byteLength(json),
        deadline: Date.now() + this.options.timeoutMs,
        answer,
      });
      this.pump(lane);
    });
  }

  /** Stops the keep-alive connections (the server is closing). */
  close(): void {
    for (const lane of this.lanes.values()) lane.agent.destroy();
  }

  private lane(service: ServiceName): Lane | undefined {
    let lane = this.lanes.get(service);
    if (lane) return lane;
    const base = this.options.serviceUrls[service];
    if (!base) return undefined;
    const url = new URL(`${base.replace(/\/$/, '')}${SOCKET_EVENTS_PATH}`);
    const Agent = url.protocol === 'https:' ? https.Agent : http.Agent;
    const agent = new Agent({ keepAlive: true, maxSockets: this.requestsInFlight, maxFreeSockets: this.requestsInFlight, scheduling: 'lifo', timeout: 30_000 });
    lane = { service, url, agent, inFlight: 0, queue: [] };
    this.lanes.set(service, lane);
    return lane;
  }

  private pump(lane: Lane): void {
    while (lane.inFlight < this.requestsInFlight && lane.queue.length > 0) {
      const now = Date.now();
      const batch: Pending[] = [];
      let bytes = 0;
      while (lane.queue.length > 0 && batch.length < this.batchMax) {
        const next = lane.queue[0];
        if (next.deadline <= now) {
          lane.queue.shift();
          this.timedOut(lane, [next], 'socket event timed out in the queue');
          continue;
        }
        if (batch.length > 0 && bytes + next.bytes > BATCH_MAX_BYTES) break;
        batch.push(lane.queue.shift() as Pending);
        bytes += next.bytes + 1;
      }
      if (batch.length === 0) continue;
      lane.inFlight++;
      void this.send(lane, batch)
        .catch((err: unknown) => {
          this.options.logger.error({ err, service: lane.service }, 'socket event batch failed');
          for (const p of batch) p.answer(this.unavailable(p.requestId));
        })
        .finally(() => {
          lane.inFlight--;
          this.pump(lane);
        });
    }
  }

  private async send(lane: Lane, batch: Pending[]): Promise<void> {
    const started = Date.now();
    const deadline = Math.min(...batch.map((p) => p.deadline));
    let answer: { status: number; body: unknown };
    try {
      answer = await this.post(lane, `{"items":[${batch.map((p) => p.json).join(',')}]}`, batch[0].requestId, deadline - started);
    } catch (err) {
      if ((err as Error).name === 'TimeoutError') return this.timedOut(lane, batch, 'socket event timed out', started);
      for (const p of batch) {
        this.options.logger.warn(
          { requestId: p.requestId, event: p.event, service: lane.service, userId: p.userId, ms: Date.now() - started, err: { name: (err as Error).name, message: (err as Error).message } },
          'socket event delivery failed',
        );
        p.answer(this.unavailable(p.requestId));
      }
      return;
    }
    const results = answer.status === 200 ? (answer.body as { results?: unknown } | null)?.results : undefined;
    if (Array.isArray(results) && results.length === batch.length) {
      batch.forEach((p, i) => p.answer(this.ack(lane, p, results[i] as SocketEventBatchResult)));
      return;
    }
    // The whole request was refused (a body over the service's limit, ...): every item gets that answer.
    for (const p of batch) p.answer(this.ack(lane, p, answer));
  }

  /** What one item's answer means to the socket, as a single request's answer did. */
  private ack(lane: Lane, p: Pending, result: SocketEventBatchResult | undefined): SocketAck<unknown> {
    const body = (result?.body ?? null) as Record<string, unknown> | null;
    const status = typeof result?.status === 'number' ? result.status : 0;
    if (status >= 200 && status < 300) return (body ?? { ok: true }) as SocketAck<unknown>;
    if (body && typeof body.error === 'string') {
      return { error: body.error, code: typeof body.code === 'string' ? body.code : undefined, requestId: p.requestId } as SocketAck<unknown>;
    }
    this.options.logger.warn({ requestId: p.requestId, event: p.event, service: lane.service, status }, 'socket event answered without an error body');
    return this.unavailable(p.requestId);
  }

  private timedOut(lane: Lane, batch: Pending[], message: string, started?: number): void {
    for (const p of batch) {
      this.options.logger.warn(
        { requestId: p.requestId, event: p.event, service: lane.service, userId: p.userId, ms: started === undefined ? undefined : Date.now() - started },
        message,
      );
      p.answer({ error: SocketMessages.serviceTimeout, code: ErrorCode.ServiceUnavailable, requestId: p.requestId });
    }
  }

  private unavailable(requestId: string): SocketAck<unknown> {
    return { error: SocketMessages.serviceUnavailable, code: ErrorCode.ServiceUnavailable, requestId };
  }

  /** One POST over the lane's keep-alive agent, with one timer; rejects with a TimeoutError past `timeoutMs`. */
  private post(lane: Lane, body: string, requestId: string, timeoutMs: number): Promise<{ status: number; body: unknown }> {
    const { url, agent } = lane;
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = transport.request(
        {
          protocol: url.protocol,
          hostname: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            [INTERNAL_TOKEN_HEADER]: this.options.internalToken,
            [REQUEST_ID_HEADER]: requestId,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', fail);
          res.on('end', () => {
            clearTimeout(timer);
            let parsed: unknown = null;
            try {
              parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              /* no JSON body: answered as one without an error body */
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
        },
      );
      function fail(err: Error) {
        clearTimeout(timer);
        reject(err);
      }
      req.on('error', fail);
      const timer = setTimeout(() => {
        const err = new Error(`no answer within ${timeoutMs} ms`);
        err.name = 'TimeoutError';
        req.destroy(err);
      }, Math.max(1, timeoutMs));
      req.end(body);
    });
  }
}
