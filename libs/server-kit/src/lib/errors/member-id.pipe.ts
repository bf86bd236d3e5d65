import { Injectable, Optional, type PipeTransform } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { badRequest } from './app.exception';

export interface MemberIdPipeOptions {
  /**
   * What a value that is not a UUID is answered with; 400 'userId must be a UUID' by default. A
   * service whose spec says such an id names nobody passes its 404 (as Nest's ParseUUIDPipe takes one).
   */
  exceptionFactory?: () => Error;
}

/**
 * A member's id in a path, in the one spelling services compare and store (lower case).
 * PostgreSQL reads `A…` and `a…` as the same uuid, but services also compare ids as text (oneself,
 * the order of a pair, a pair's lock, the ids in published events), where an upper-case spelling
 * would pass for someone else. `@Param('userId', MemberIdPipe)`, or
 * `new MemberIdPipe({ exceptionFactory })` for another answer to a malformed id.
 */
@Injectable()
export class MemberIdPipe implements PipeTransform<unknown, string> {
  constructor(@Optional() private readonly options: MemberIdPipeOptions = {}) {}

  transform(value: unknown): string {
    if (typeof value !== 'string' || !isUUID(value)) {
      throw this.options.exceptionFactory?.() ?? badRequest('userId must be a UUID');
    }
    return value.toLowerCase();
  }
}
