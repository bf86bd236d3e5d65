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
 * What safety answers for a failure that is not a refusal (the database or Redis unreachable for a
 * moment): 503 SERVICE_UNAVAILABLE, which clients may retry, rather than a 500. Every route is safe
 * to repeat: a block and an unblock are idempotent, a report that did commit is a 409 the second
 * time, an unmatch that did commit a 404. Logged with the error's name and message only (a driver
 * error can carry a statement's parameters: a report's details). Chat-service has the same rule
 * (chat-unavailable.ts); both belong in the kit.
 */
@Injectable()
export class SafetyUnavailableInterceptor implements NestInterceptor {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = context.switchToHttp().getRequest<Request>().route?.path as string | undefined;
    return next.handle().pipe(
      catchError((e: unknown) => {
        if (e instanceof HttpException) return throwError(() => e);
        const error = e instanceof Error ? { name: e.name, message: e.message } : { message: String(e) };
        this.logger.error({ route, error }, 'safety request failed; answered as unavailable');
        return throwError(() => serviceUnavailable());
      }),
    );
  }
}
