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
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
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
import { CurrentUser, REQUIRED_ROLES } from '../auth/decorators';
import { forbidden, notFound } from '../errors/app.exception';
import { createValidationPipe } from '../errors/validation';
import { InternalCallerGuard } from '../bootstrap/internal-trust';
import { SOCKET_EVENTS_PATH } from './realtime.keys';

export const SOCKET_EVENT = 'mate:socketEvent';

/**
 * Marks a provider's method as the handler of one client socket event. The gateway delivers the
 * event with the sender's bearer token, so the global guard has already checked the live session;
 * the first parameter is the payload, validated against its class (class-validator, unknown fields
 * rejected, same `{ error }` body as HTTP), the second the sender. What it returns is the
 * acknowledgement (`{ ok: true }` when it returns nothing); what it throws becomes `{ error }`.
 * `@Roles()` on the handler is enforced as on a route (403 `{ error }` for other roles).
 *
 *     @Injectable()
 *     export class ChatSocketEvents {
 *       @SocketEvent('send_message')
 *       send(payload: SendMessageDto, sender: AuthPrincipal) { ... }
 *     }
 */
export const SocketEvent = (event: ClientEventName): MethodDecorator => SetMetadata(SOCKET_EVENT, event);

type SocketEventHandler = (payload: unknown, sender: AuthPrincipal) => unknown;

interface RegisteredHandler {
  handle: SocketEventHandler;
  payloadType: Type | undefined;
  /** `@Roles()` on the handler: the global guard only sees the one internal route, not the handler. */
  roles: Role[] | undefined;
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
        const [payloadType] = (Reflect.getMetadata('design:paramtypes', prototype, method) ?? []) as (Type | undefined)[];
        if (payloadType && UNVALIDATED_TYPES.has(payloadType)) {
          throw new Error(
            `${wrapper.name}.${method} takes a payload of no class: declare a class with class-validator rules, so the payload is validated`,
          );
        }
        const roles = Reflect.getMetadata(REQUIRED_ROLES, fn) as Role[] | undefined;
        this.handlers.set(event, { handle: fn.bind(instance), payloadType, roles });
      }
    }
    const owned = (Object.keys(SOCKET_EVENT_OWNERS) as ClientEventName[]).filter((e) => SOCKET_EVENT_OWNERS[e] === this.service);
    const missing = owned.filter((e) => !this.handlers.has(e));
    if (missing.length) throw new Error(`${this.service} owns socket events without a @SocketEvent handler: ${missing.join(', ')}`);
  }

  async dispatch(event: string, payload: unknown, sender: AuthPrincipal): Promise<unknown> {
    const handler = isClientEventName(event) ? this.handlers.get(event) : undefined;
    if (!handler) throw notFound(SocketMessages.unknownEvent, ErrorCode.NotFound);
    if (handler.roles?.length && !handler.roles.includes(sender.role)) throw forbidden(AuthMessages.adminRequired);
    const value = await this.validation.transform(payload, { type: 'body', metatype: handler.payloadType });
    const result = await handler.handle(value, sender);
    return result ?? ({ ok: true } satisfies SocketOk);
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
  constructor(private readonly registry: SocketEventRegistry) {}

  @Post(':event')
  @HttpCode(200)
  handle(@Param('event') event: string, @Body() payload: unknown, @CurrentUser() sender: AuthPrincipal) {
    return this.registry.dispatch(event, payload, sender);
  }
}
