import {
  HttpException,
  Inject,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request } from 'express';
import type { Logger } from 'pino';
import { catchError, throwError, type Observable } from 'rxjs';
import { LOGGER } from '../logging/logger';
import { serviceUnavailable } from './app.exception';

/**
 * What a service answers for a failure that is not a refusal (its database or Redis unreachable for
 * a moment): 503 SERVICE_UNAVAILABLE, which clients retry, rather than a 500 they show as failed.
 * Use it only where every route it covers is safe to repeat (idempotent by key or by nature).
 * Logged with the error's name and message only: a driver error can carry a statement's
 * parameters, an ioredis error the command's arguments (a message's content, a report's details).
 */
export function asUnavailable(logger: Logger, context: Record<string, unknown>, e: unknown): unknown {
  if (e instanceof HttpException) return e;
  const error = e instanceof Error ? { name: e.name, message: e.message } : { message: String(e) };
  logger.error({ ...context, error }, 'request failed; answered as unavailable');
  return serviceUnavailable();
}

/**
 * asUnavailable for a controller's REST routes (`@UseInterceptors(UnavailableInterceptor)`); it runs
 * after the guard, so a session check that fails answers the kit's own way.
 */
@Injectable()
export class UnavailableInterceptor implements NestInterceptor {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = context.switchToHttp().getRequest<Request>().route?.path as string | undefined;
    return next.handle().pipe(catchError((e: unknown) => throwError(() => asUnavailable(this.logger, { route }, e))));
  }
}
