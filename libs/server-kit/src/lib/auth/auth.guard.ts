import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthMessages, ErrorCode, type Role } from '@mate/contracts';
import { forbidden } from '../errors/app.exception';
import { ALLOW_UNVERIFIED, IS_PUBLIC, REQUIRED_ROLES } from './decorators';
import { authRequestOf, rememberPrincipal } from './auth-context';
import { authenticateWith, JwtStrategy } from './jwt.strategy';

/**
 * The global guard: every route needs a live session unless marked @Public(), of a verified
 * account unless marked @AllowUnverified(); @Roles() adds a role check. Failures are 401 (who are
 * you?) or 403 (not allowed). It works the same for HTTP
 * routes, socket.io handlers and service calls (see auth-context.ts for where each carries its token).
 * It runs this service's own JwtStrategy (its secret, its Redis), not passport's process-wide one.
 */
@Injectable()
export class SessionAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly strategy: JwtStrategy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const req = authRequestOf(context);
    const user = await authenticateWith(this.strategy, req);
    req.user = user;
    rememberPrincipal(context, user);
    if (!user.verified && !this.reflector.getAllAndOverride<boolean>(ALLOW_UNVERIFIED, targets)) {
      throw forbidden(AuthMessages.emailNotVerified, ErrorCode.EmailNotVerified);
    }
    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(REQUIRED_ROLES, targets);
    if (roles?.length && !roles.includes(user.role)) throw forbidden(AuthMessages.adminRequired);
    return true;
  }
}
