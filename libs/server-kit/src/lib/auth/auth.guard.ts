import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { AuthMessages, type AuthPrincipal, type Role } from '@mate/contracts';
import { forbidden, unauthorized } from '../errors/app.exception';
import { IS_PUBLIC, REQUIRED_ROLES } from './decorators';
import { authRequestOf, rememberPrincipal } from './auth-context';

/**
 * The global guard: every route needs a live session unless marked @Public(); @Roles() adds a
 * role check. Failures are 401 (who are you?) or 403 (not allowed). It works the same for HTTP
 * routes, socket.io handlers and service calls (see auth-context.ts for where each carries its token).
 */
@Injectable()
export class SessionAuthGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    await (super.canActivate(context) as Promise<boolean>);
    const user = authRequestOf(context).user as AuthPrincipal;
    rememberPrincipal(context, user);
    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(REQUIRED_ROLES, targets);
    if (roles?.length && !roles.includes(user.role)) throw forbidden(AuthMessages.adminRequired);
    return true;
  }

  override getRequest(context: ExecutionContext) {
    return authRequestOf(context);
  }

  /** passport only needs a response for redirects, which a bearer strategy never makes (not in its typings). */
  getResponse(context: ExecutionContext) {
    return context.getType() === 'http' ? context.switchToHttp().getResponse() : {};
  }

  override handleRequest<T>(err: unknown, user: T): T {
    if (err) throw err;
    if (!user) throw unauthorized(AuthMessages.authRequired);
    return user;
  }
}
