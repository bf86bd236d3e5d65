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
import { LOGGER, serviceUnavailable } from '@mate/server-kit';

/**
 * What chat answers for a failure that is not a refusal (the database or Redis unreachable for a
 * moment): 503 SERVICE_UNAVAILABLE, which clients retry, rather than a 500 they show as failed.
 * Everything chat serves is safe to repeat (a send by its clientId, the rest by nature). Logged
 * with the error's name and message only: driver errors can carry a statement's parameters, and
 * ioredis errors the command's arguments (a message's content).
 */
export function asUnavailable(logger: Logger, context: Record<string, unknown>, e: unknown): unknown {
  if (e instanceof HttpException) return e;
  const error = e instanceof Error ? { name: e.name, message: e.message } : { message: String(e) };
  logger.error({ ...context, error }, 'chat request failed; answered as unavailable');
  return serviceUnavailable();
}

/** asUnavailable for the REST routes (after the guard: a session check that fails is the kit's). */
@Injectable()
export class UnavailableInterceptor implements NestInterceptor {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = context.switchToHttp().getRequest<Request>().route?.path as string | undefined;
    return next.handle().pipe(catchError((e: unknown) => throwError(() => asUnavailable(this.logger, { route }, e))));
  }
}
