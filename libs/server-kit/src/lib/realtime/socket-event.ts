import {
  Body,
  Controller,
  HttpCode,
  Inject,
  Injectable,
  Param,
  Post,
  SetMetadata,
  UseGuards,
  type OnModuleInit,
  type Type,
} from '@nestjs/common';
import { DiscoveryService, MetadataScanner, ModuleRef } from '@nestjs/core';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  AuthMessages,
  ErrorCode,
  SOCKET_EVENT_OWNERS,
  SocketMessages,
  isClientEventName,
  type AuthPrincipal,
  type ClientEventName,
  type Role,
  type ServiceName,
  type SocketOk,
} from '@mate/contracts';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { COUNTED_PER_MEMBER, CurrentUser, Public, REQUIRED_ROLES, type CountedRoute, type PerMemberLimits } from '../auth/decorators';
import { JwtStrategy } from '../auth/jwt.strategy';
import { SessionStore } from '../auth/session-store';
import { AppException, badRequest, forbidden, notFound, serviceUnavailable } from '../errors/app.exception';
import { BodyErrorMessages, toErrorBody } from '../errors/error.filter';
import { JsonBodyMessages, MAX_JSON_DEPTH, hostileJsonProblem, jsonDepthExceeds } from '../bootstrap/json-body';
import { currentRequestId, LOGGER, runWithRequestId } from '../logging/logger';
import { createValidationPipe } from '../errors/validation';
import { InternalCallerGuard } from '../bootstrap/internal-trust';
import { SOCKET_EVENT_BATCH_MAX, SOCKET_EVENTS_PATH } from './realtime.keys';

export const SOCKET_EVENT = 'mate:socketEvent';

/**
 * Marks a provider's method as the handler of one client socket event. The gateway delivers the
 * event with the sender's bearer token, so the global guard has already checked the live session;
 * the first parameter is the payload, validated against its class (class-validator, unknown fields
 * rejected, same `{ error }` body as HTTP), the second the sender. What it returns is the
 * acknowledgement (`{ ok: true }` when it returns nothing); what it throws becomes `{ error }`.
 * `@Roles()` on the handler is enforced as on a route (403 `{ error }` for other roles), and
 * `@CountedPerMember()` counts the event against the sender's limits once the payload is valid
 * (429 `{ error }` past them, before the handler runs).
 *
 *     @Injectable()
 *     export class ChatSocketEvents {
 *       @SocketEvent('send_message')
 *       send(payload: SendMessageDto, sender: AuthPrincipal) { ... }
 *     }
 */
export const SocketEvent = (event: ClientEventName): MethodDecorator => SetMetadata(SOCKET_EVENT, event);

/** `@SocketEventBatch`'s payload class, kept beside the event name. */
const SOCKET_EVENT_BATCH_TYPE = 'mate:socketEventBatchType';

/** One event of a batch handler's call: its validated payload, its sender and its request id. */
export interface SocketEventEntry<P> {
  payload: P;
  sender: AuthPrincipal;
  /** The event's request id (its logs, its outbox rows): the handler runs outside any one item's context. */
  requestId: string;
}

/**
 * Marks a provider's method as the handler of every event of one kind that a delivery holds: the
 * gateway's batch (up to SOCKET_EVENT_BATCH_MAX events of any members) calls it once with all its
 * events of this kind, each already authenticated and validated against `payloadType` exactly as
 * for `@SocketEvent` (an item that fails either is answered on its own and never reaches the
 * handler). It answers one settled result per entry, in order: a fulfilled value is that event's
 * acknowledgement, a rejection its `{ error }`. So a handler can do the work of many members in
 * one round trip (chat's send_message: one statement, one transaction) while one entry's refusal
 * never fails another's. The single-event route calls it with one entry.
 *
 *     @SocketEventBatch('send_message', SendMessageDto)
 *     sendMany(entries: SocketEventEntry<SendMessageDto>[]): Promise<PromiseSettledResult<ChatMessageDto>[]> { ... }
 */
export const SocketEventBatch =
  (event: ClientEventName, payloadType: Type): MethodDecorator =>
  (target, key, descriptor) => {
    SetMetadata(SOCKET_EVENT, event)(target, key, descriptor);
    SetMetadata(SOCKET_EVENT_BATCH_TYPE, payloadType)(target, key, descriptor);
  };

/**
 * A payload class whose rule needs the sender as well as the fields (messaging yourself): the
 * registry calls `refusalFor` once the fields are valid, so the refusal (a 400) comes before the
 * event is counted (`@CountedPerMember`) and before the handler, like a field's.
 */
export interface SenderCheckedPayload {
  refusalFor(sender: AuthPrincipal): AppException | null;
}

type SocketEventHandler = (payload: unknown, sender: AuthPrincipal) => unknown;
type SocketEventBatchFn = (entries: SocketEventEntry<unknown>[]) => Promise<PromiseSettledResult<unknown>[]>;

interface RegisteredHandler {
  event: ClientEventName;
  /** One event at a time (`@SocketEvent`) or all of a delivery's events of its kind (`@SocketEventBatch`). */
  handle?: SocketEventHandler;
  handleMany?: SocketEventBatchFn;
  payloadType: Type | undefined;
  /** `@Roles()` on the handler: the global guard only sees the one internal route, not the handler. */
  roles: Role[] | undefined;
  /** `@CountedPerMember()` on the handler, with its provider: counted by the registry (`count`). */
  counted: { kind: string; limits: PerMemberLimits } | undefined;
}

/** An event ready for its handler: authenticated, its payload valid (`prepare`). */
export interface PreparedSocketEvent {
  handler: RegisteredHandler;
  value: unknown;
  sender: AuthPrincipal;
}

export const REALTIME_SERVICE = Symbol('REALTIME_SERVICE');

/**
 * Parameter types the validation pipe passes through unchecked: what an interface, a record type,
 * `unknown` or a primitive compiles to. A handler taking its payload as one would get any JSON.
 */
const UNVALIDATED_TYPES = new Set<unknown>([Object, String, Number, Boolean, Array, Buffer, Date]);

/**
 * Finds the `@SocketEvent` handlers at start-up. Start-up fails when an event this service owns
 * (`SOCKET_EVENT_OWNERS`) has no handler, when one has two, or when a handler claims another
 * service's event: the gateway would route it elsewhere and it would never run.
 */
@Injectable()
export class SocketEventRegistry implements OnModuleInit {
  private readonly handlers = new Map<string, RegisteredHandler>();
  private readonly validation = createValidationPipe();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    @Inject(REALTIME_SERVICE) private readonly service: ServiceName,
    private readonly moduleRef: ModuleRef,
    private readonly sessions: SessionStore,
  ) {}

  onModuleInit() {
    for (const wrapper of [...this.discovery.getProviders(), ...this.discovery.getControllers()]) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const fn = instance[method] as SocketEventHandler;
        const event = Reflect.getMetadata(SOCKET_EVENT, fn) as ClientEventName | undefined;
        if (!event) continue;
        if (SOCKET_EVENT_OWNERS[event] !== this.service) {
          throw new Error(`${wrapper.name}.${method} handles socket event "${event}", which belongs to ${SOCKET_EVENT_OWNERS[event]}`);
        }
        if (this.handlers.has(event)) throw new Error(`Socket event "${event}" has two handlers`);
        const batchType = Reflect.getMetadata(SOCKET_EVENT_BATCH_TYPE, fn) as Type | undefined;
        const [payloadType] = batchType
          ? [batchType]
          : ((Reflect.getMetadata('design:paramtypes', prototype, method) ?? []) as (Type | undefined)[]);
        if (payloadType && UNVALIDATED_TYPES.has(payloadType)) {
          throw new Error(
            `${wrapper.name}.${method} takes a payload of no class: declare a class with class-validator rules, so the payload is validated`,
          );
        }
        const roles = Reflect.getMetadata(REQUIRED_ROLES, fn) as Role[] | undefined;
        const countedRoute = Reflect.getMetadata(COUNTED_PER_MEMBER, fn) as CountedRoute | undefined;
        // Found now: a handler counted by a provider this service lacks fails start-up.
        const counted = countedRoute && { kind: countedRoute.kind, limits: this.moduleRef.get(countedRoute.limits, { strict: false }) };
        const bound = fn.bind(instance);
        this.handlers.set(
          event,
          batchType
            ? { event, handleMany: bound as unknown as SocketEventBatchFn, payloadType, roles, counted }
            : { event, handle: bound, payloadType, roles, counted },
        );
      }
    }
    const owned = (Object.keys(SOCKET_EVENT_OWNERS) as ClientEventName[]).filter((e) => SOCKET_EVENT_OWNERS[e] === this.service);
    const missing = owned.filter((e) => !this.handlers.has(e));
    if (missing.length) throw new Error(`${this.service} owns socket events without a @SocketEvent handler: ${missing.join(', ')}`);
  }

  async dispatch(event: string, payload: unknown, sender: AuthPrincipal): Promise<unknown> {
    const { handler, value } = await this.prepare(event, payload, sender);
    const [overLimit] = await this.count([{ handler, value, sender }]);
    if (overLimit) throw overLimit;
    if (handler.handleMany) {
      const [answer] = await handler.handleMany([{ payload: value, sender, requestId: currentRequestId() ?? randomUUID() }]);
      if (answer.status === 'rejected') throw answer.reason;
      return answer.value ?? ({ ok: true } satisfies SocketOk);
    }
    return this.run(handler, value, sender);
  }

  /** The event's handler and its validated payload; throws the event's refusal (unknown, role, invalid). */
  async prepare(event: string, payload: unknown, sender: AuthPrincipal): Promise<{ handler: RegisteredHandler; value: unknown }> {
    const handler = isClientEventName(event) ? this.handlers.get(event) : undefined;
    if (!handler) throw notFound(SocketMessages.unknownEvent, ErrorCode.NotFound);
    if (handler.roles?.length && !handler.roles.includes(sender.role)) throw forbidden(AuthMessages.adminRequired);
    const value: unknown = await this.validation.transform(payload, { type: 'body', metatype: handler.payloadType });
    const refusal = (value as Partial<SenderCheckedPayload> | null)?.refusalFor?.(sender);
    if (refusal) throw refusal;
    return { handler, value };
  }

  /**
   * Counts the prepared events whose handlers are `@CountedPerMember`, all in one Redis call (a
   * delivery's events of every member and kind), after their payloads are valid and before any
   * handler runs. Answers per event, in order: its 429 past a limit, a 503 (retryable) when
   * Redis did not answer, or null (within its limits, or not counted).
   */
  async count(events: readonly PreparedSocketEvent[]): Promise<(AppException | null)[]> {
    const counters = events.map(({ handler, value, sender }) =>
      handler.counted ? handler.counted.limits.counters(handler.counted.kind, sender.userId, value) : [],
    );
    if (counters.every((of) => of.length === 0)) return events.map(() => null);
    let counts: Awaited<ReturnType<SessionStore['countMembers']>>;
    try {
      counts = await this.sessions.countMembers(counters);
    } catch (err) {
      return counters.map((of) => (of.length ? serviceUnavailable(err) : null));
    }
    return events.map(({ handler }, i) =>
      handler.counted && counters[i].length ? handler.counted.limits.refusal(handler.counted.kind, counts[i]) : null,
    );
  }

  /** A one-at-a-time handler's acknowledgement. */
  async run(handler: RegisteredHandler, value: unknown, sender: AuthPrincipal): Promise<unknown> {
    const result = await (handler.handle as SocketEventHandler)(value, sender);
    return result ?? ({ ok: true } satisfies SocketOk);
  }
}

/** One event of a batch, as the gateway sends it: the payload as JSON text, parsed here on its own. */
export interface SocketEventBatchItem {
  event: string;
  /** The sender's bearer token. */
  token: string;
  /** The gateway's request id for this event (logs, `{ error }` bodies). */
  requestId?: string;
  /** The payload's JSON text; absent when the socket sent none (read as `{}`, like an empty body). */
  payload?: string;
}

/** One answer of a batch, in the order of the items: the status the single route would have answered, and its body. */
export interface SocketEventBatchResult {
  status: number;
  body: unknown;
}

const ITEM_KEYS = new Set(['event', 'token', 'requestId', 'payload']);
const SAFE_ID = /^[A-Za-z0-9._:-]{1,100}$/;
const MAX_TOKEN_LENGTH = 4096;
const PAYLOAD_LIMIT_BYTES = 100 * 1024;

/** A refusal shaped as the body parser's (its `type` and status), so toErrorBody answers it the same way. */
const parserRefusal = (message: string, status: number, type: string) => Object.assign(new Error(message), { status, type });

/** The batch itself is the gateway's own request: anything malformed is its bug, refused whole. */
function batchItems(body: unknown): SocketEventBatchItem[] {
  const refuse = (why: string) => badRequest(`Malformed socket event batch: ${why}`);
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw refuse('not an object');
  const { items, ...rest } = body as { items?: unknown };
  if (Object.keys(rest).length) throw refuse('unknown fields');
  if (!Array.isArray(items) || items.length === 0 || items.length > SOCKET_EVENT_BATCH_MAX) {
    throw refuse(`items must be a list of 1 to ${SOCKET_EVENT_BATCH_MAX} events`);
  }
  items.forEach((item: unknown, i) => {
    const it = item as Record<string, unknown>;
    const ok =
      !!item &&
      typeof item === 'object' &&
      !Array.isArray(item) &&
      Object.keys(it).every((k) => ITEM_KEYS.has(k)) &&
      typeof it.event === 'string' &&
      it.event.length <= 100 &&
      typeof it.token === 'string' &&
      it.token.length <= MAX_TOKEN_LENGTH &&
      (it.requestId === undefined || (typeof it.requestId === 'string' && SAFE_ID.test(it.requestId))) &&
      (it.payload === undefined || typeof it.payload === 'string');
    if (!ok) throw refuse(`item ${i}`);
  });
  return items as SocketEventBatchItem[];
}

/**
 * An item's payload, checked as the services' JSON body parser checks a request body (size, depth,
 * well-formed JSON of an object or array, no prototype keys, well-formed text), with the same
 * `{ error }`: one member's hostile payload is refused alone, never the batch it came in.
 */
function itemPayload(text: string | undefined): unknown {
  if (text === undefined) return {};
  const raw = Buffer.from(text, 'utf8');
  if (raw.length > PAYLOAD_LIMIT_BYTES) throw parserRefusal(BodyErrorMessages.tooLarge, 413, 'entity.too.large');
  if (jsonDepthExceeds(raw, MAX_JSON_DEPTH)) throw parserRefusal(JsonBodyMessages.tooDeep, 400, 'entity.too.deep');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw parserRefusal(BodyErrorMessages.malformed, 400, 'entity.parse.failed');
  }
  if (!value || typeof value !== 'object') throw parserRefusal(BodyErrorMessages.malformed, 400, 'entity.parse.failed');
  const problem = hostileJsonProblem(value);
  if (problem) throw badRequest(problem);
  return value;
}

/**
 * The gateway's batched delivery (docs/adr/0005-realtime.md, "Batching"): the events that queued
 * while an earlier request to this service was in flight, in one request. Each item is handled as
 * the single route handles one request: its sender authenticated as the global guard does (JWT,
 * live session touched, verified account; the sessions in one Redis round trip), its payload
 * parsed and validated on its own, counted against its sender's limits (`@CountedPerMember`: the
 * delivery's counted events in one more round trip), its handler run in its own request-id context, and its answer
 * (or `{ error }`) returned in its place. One item's failure never fails another.
 */
@Injectable()
export class SocketEventBatchHandler {
  constructor(
    private readonly registry: SocketEventRegistry,
    private readonly strategy: JwtStrategy,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async handle(body: unknown): Promise<{ results: SocketEventBatchResult[] }> {
    const items = batchItems(body);
    let senders: (AuthPrincipal | AppException)[];
    try {
      senders = await this.strategy.authenticateMany(items.map((item) => item.token));
    } catch (err) {
      // The session store (Redis) failed: nobody could be authenticated, and a retry may work.
      this.logger.warn({ err: { name: (err as Error).name, message: (err as Error).message }, items: items.length }, 'socket event batch: session check failed');
      senders = items.map(() => new AppException(SocketMessages.serviceUnavailable, ErrorCode.ServiceUnavailable, 503));
    }
    const results: SocketEventBatchResult[] = new Array(items.length);
    // Every item authenticated and validated, then the counted ones counted in one Redis call.
    const prepared: (PreparedSocketEvent & { index: number; requestId: string })[] = [];
    await Promise.all(
      items.map((item, index) => {
        const requestId = item.requestId ?? randomUUID();
        return runWithRequestId(requestId, async () => {
          try {
            const sender = senders[index];
            if (sender instanceof AppException) throw sender;
            const { handler, value } = await this.registry.prepare(item.event, itemPayload(item.payload), sender);
            prepared.push({ handler, value, sender, index, requestId });
          } catch (e) {
            results[index] = this.refused(e, item.event, requestId);
          }
        });
      }),
    );
    prepared.sort((x, y) => x.index - y.index);
    const overLimit = await this.registry.count(prepared);
    // The items of each @SocketEventBatch handler, handled together; the others one by one.
    const grouped = new Map<RegisteredHandler, { index: number; entry: SocketEventEntry<unknown> }[]>();
    await Promise.all(
      prepared.map(({ handler, value, sender, index, requestId }, i) =>
        runWithRequestId(requestId, async () => {
          try {
            const refusal = overLimit[i];
            if (refusal) throw refusal;
            if (handler.handleMany) {
              const group = grouped.get(handler) ?? [];
              group.push({ index, entry: { payload: value, sender, requestId } });
              grouped.set(handler, group);
              return;
            }
            results[index] = { status: 200, body: await this.registry.run(handler, value, sender) };
          } catch (e) {
            results[index] = this.refused(e, handler.event, requestId);
          }
        }),
      ),
    );
    await Promise.all(
      [...grouped].map(async ([handler, group]) => {
        let answers: PromiseSettledResult<unknown>[];
        try {
          answers = await (handler.handleMany as SocketEventBatchFn)(group.map((g) => g.entry));
          if (answers.length !== group.length) throw new Error(`${handler.event}: the batch handler answered ${answers.length} of ${group.length} events`);
        } catch (e) {
          answers = group.map(() => ({ status: 'rejected', reason: e }));
        }
        group.forEach(({ index, entry }, i) => {
          const answer = answers[i];
          results[index] =
            answer.status === 'fulfilled'
              ? { status: 200, body: answer.value ?? ({ ok: true } satisfies SocketOk) }
              : runWithRequestId(entry.requestId, () => this.refused(answer.reason, handler.event, entry.requestId));
        });
      }),
    );
    return { results };
  }

  /** An item's `{ error }` answer, as the error filter would give it; server-side failures logged. */
  private refused(e: unknown, event: string, requestId: string): SocketEventBatchResult {
    const { status, body } = toErrorBody(e, requestId);
    if (status >= 500) {
      if (e instanceof AppException) this.logger.warn({ requestId, event, code: e.code, status }, 'refused by the service');
      else this.logger.error({ requestId, event, err: e }, 'unhandled error');
    }
    return { status, body };
  }
}

/**
 * The one internal route the gateway delivers client events to. Not routed by the gateway's edge,
 * not in the API docs, and refused (403) to any caller without the gateway's `INTERNAL_TOKEN`,
 * even one holding a member's token: only the gateway may say a socket sent an event.
 */
@ApiExcludeController()
@UseGuards(InternalCallerGuard)
@Controller(SOCKET_EVENTS_PATH.slice(1))
export class SocketEventsController {
  constructor(
    private readonly registry: SocketEventRegistry,
    private readonly batch: SocketEventBatchHandler,
  ) {}

  /** `POST <path>`: a batch; @Public because each item carries its own token, checked by the handler. */
  @Post()
  @Public()
  @HttpCode(200)
  handleBatch(@Body() body: unknown) {
    return this.batch.handle(body);
  }

  @Post(':event')
  @HttpCode(200)
  handle(@Param('event') event: string, @Body() payload: unknown, @CurrentUser() sender: AuthPrincipal) {
    return this.registry.dispatch(event, payload, sender);
  }
}
