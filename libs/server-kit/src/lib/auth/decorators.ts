import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { AuthPrincipal, Role } from '@mate/contracts';
import { principalOf } from './auth-context';

export const IS_PUBLIC = 'mate:isPublic';
export const REQUIRED_ROLES = 'mate:roles';
export const ALLOW_UNVERIFIED = 'mate:allowUnverified';

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
