import { Injectable, type PipeTransform } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { badRequest } from '@mate/server-kit';

/**
 * The other member's id in the path, in the one spelling the service compares (lower case): the
 * pair's order, its id and oneself are compared as text. Not a UUID: 400.
 */
@Injectable()
export class MemberIdPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (typeof value !== 'string' || !isUUID(value)) throw badRequest('userId must be a UUID');
    return value.toLowerCase();
  }
}
