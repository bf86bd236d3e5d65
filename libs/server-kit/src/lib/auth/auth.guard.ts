import { CanActivate, ExecutionContext, Injectable, type Type } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import { AuthMessages, ErrorCode, type AuthPrincipal, type Role } from '@mate/contracts';
import { forbidden, type AppException } from '../errors/app.exception';
import { ALLOW_UNVERIFIED, COUNTED_PER_MEMBER, IS_PUBLIC, REQUIRED_ROLES, type CountedRoute, type PerMemberLimits } from './decorators';
import { authRequestOf, rememberPrincipal } from './auth-context';
import { authenticateWith, JwtStrategy } from './jwt.strategy';

/**
 * The global guard: every route needs a live session unless marked @Public(), of a verified
 * account unless marked @AllowUnverified(); @Roles() adds a role check. Failures are 401 (who are
 * you?) or 403 (not allowed). It works the same for HTTP
 * routes, socket.io handlers and service calls (see auth-context.ts for where each carries its token).
 * It runs this service's own JwtStrategy (its secret, its Redis), not passport's process-wide one.
 * On a route marked @CountedPerMember() it also counts the member's limits in the session check's
 * Redis call, and refuses past them (429) after the 401/403 checks.
 */
@Injectable()
export class SessionAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly strategy: JwtStrategy,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** The providers of per-member limits, found once each (`@CountedPerMember`). */
  private readonly limitProviders = new Map<Type<PerMemberLimits>, PerMemberLimits>();

  private limitsOf(type: Type<PerMemberLimits>): PerMemberLimits {
    const known = this.limitProviders.get(type);
    if (known) return known;
    const limits = this.moduleRef.get(type, { strict: false });
    this.limitProviders.set(type, limits);
    return limits;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const req = authRequestOf(context);
    const allowUnverified = this.reflector.getAllAndOverride<boolean>(ALLOW_UNVERIFIED, targets);
    const counted = this.reflector.getAllAndOverride<CountedRoute | undefined>(COUNTED_PER_MEMBER, targets);
    let user: AuthPrincipal;
    let overLimit: (() => AppException | null) | undefined;
    if (counted) {
      const limits = this.limitsOf(counted.limits);
      const { principal, counts } = await this.strategy.authenticateCounting(
        req,
        (userId) => limits.counters(counted.kind, userId),
        { verifiedOnly: !allowUnverified },
      );
      user = principal;
      overLimit = () => limits.refusal(counted.kind, counts);
    } else {
      user = await authenticateWith(this.strategy, req);
    }
    req.user = user;
    rememberPrincipal(context, user);
    if (!user.verified && !allowUnverified) {
      throw forbidden(AuthMessages.emailNotVerified, ErrorCode.EmailNotVerified);
    }
    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(REQUIRED_ROLES, targets);
    if (roles?.length && !roles.includes(user.role)) throw forbidden(AuthMessages.adminRequired);
    const refusal = overLimit?.();
    if (refusal) throw refusal;
    return true;
  }
}
