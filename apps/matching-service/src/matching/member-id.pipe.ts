import { Injectable, type PipeTransform } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { MatchingMessages } from '@mate/contracts';
import { notFound } from '@mate/server-kit';

/**
 * A member id in the path, in the one spelling the service compares: lower case. PostgreSQL reads
 * `A…` and `a…` as the same uuid, but the service also compares ids as text (oneself, the order of
 * a pair, the pair's lock, the ids in published events), where an upper-case spelling would pass
 * for someone else. Anything that is not a UUID names nobody.
 */
@Injectable()
export class MemberIdPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (typeof value !== 'string' || !isUUID(value)) throw notFound(MatchingMessages.memberNotFound);
    return value.toLowerCase();
  }
}
