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
 * A provider of per-member limits the guard counts (`@CountedPerMember`): a service's own rules
 * (RateLimits' keys and allowances), whose counts come back from the session check's Redis call.
 */
export interface PerMemberLimits {
  /** The member's counters for `kind` of request, in the order they are counted. */
  counters(kind: string, userId: string): AllowanceCounter[];
  /** The 429 for `kind` when a count is past its allowance, else null. */
  refusal(kind: string, counts: readonly WindowCount[]): AppException | null;
}

/** What `@CountedPerMember` leaves on a route for the guard. */
export interface CountedRoute {
  limits: Type<PerMemberLimits>;
  kind: string;
}

/**
 * The route's requests count against the member's limits `kind` of `limits` (a provider of the
 * service), counted by the global guard in the same Redis call as the session check: one round
 * trip for both. A request whose session the guard refuses counts nothing; past a limit it is
 * 429 with Retry-After (after the 401/403 checks, as when the handler counted).
 */
export const CountedPerMember = (limits: Type<PerMemberLimits>, kind: string) =>
  SetMetadata(COUNTED_PER_MEMBER, { limits, kind } satisfies CountedRoute);
