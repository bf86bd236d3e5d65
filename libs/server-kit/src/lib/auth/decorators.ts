import { createParamDecorator, ExecutionContext, SetMetadata, type Type } from '@nestjs/common';
import type { AuthPrincipal, Role } from '@mate/contracts';
import type { AppException } from '../errors/app.exception';
import { principalOf } from './auth-context';
import type { AllowanceCounter, WindowCount } from './session-store';

export const IS_PUBLIC = 'mate:isPublic';
export const REQUIRED_ROLES = 'mate:roles';
export const ALLOW_UNVERIFIED = 'mate:allowUnverified';
export const COUNTED_PER_MEMBER = 'mate:countedPerMember';

/** The route needs no bearer token. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/**
 * The route serves a signed-in member whose email is not verified yet. Every other route refuses
 * them (403 EMAIL_NOT_VERIFIED): only what the verify-email prompt needs, and the security
 * features of an account (sign out, sessions), are marked.
 */
export const AllowUnverified = () => SetMetadata(ALLOW_UNVERIFIED, true);

/** The route needs one of these roles (checked on the server, whatever the client shows). */
export const Roles = (...roles: Role[]) => SetMetadata(REQUIRED_ROLES, roles);

/** The authenticated principal of the request, socket or service call. */
export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthPrincipal => principalOf(ctx));

/**
 * A provider of per-member limits the kit counts (`@CountedPerMember`): a service's own rules
 * (RateLimits' keys and allowances), whose counts come back from the kit's Redis call. Services
 * declare theirs on the kit's `MemberLimits`.
 */
export interface PerMemberLimits {
  /**
   * The member's counters for `kind` of request, in the order they are counted. A socket event's
   * validated payload comes as `payload` (an HTTP route's is not read yet): no counters, nothing
   * counted (a sync that names nothing).
   */
  counters(kind: string, userId: string, payload?: unknown): AllowanceCounter[];
  /** The 429 for `kind` when a count is past its allowance, else null. */
  refusal(kind: string, counts: readonly WindowCount[]): AppException | null;
}

/** What `@CountedPerMember` leaves on a route for the guard. */
export interface CountedRoute {
  limits: Type<PerMemberLimits>;
  kind: string;
}

/**
 * The route's requests, or the socket event's, count against the member's limits `kind` of
 * `limits` (a provider of the service): the house's one way to limit what a member asks for
 * (docs/conventions.md, "Rate limits"). Past a limit it is 429 with Retry-After, after the
 * 401/403 checks; a request or event refused before counts nothing.
 *
 * - On an HTTP route the global guard counts in the same Redis call as the session check: one
 *   round trip for both, before the body is read.
 * - On a `@SocketEvent`/`@SocketEventBatch` handler the kit's socket-event dispatch counts once
 *   the payload is valid (a 400 wins, and is not counted), before the handler runs; a delivery's
 *   events, of every member and kind, in one Redis call.
 */
export const CountedPerMember = (limits: Type<PerMemberLimits>, kind: string) =>
  SetMetadata(COUNTED_PER_MEMBER, { limits, kind } satisfies CountedRoute);
