import { Injectable, type PipeTransform } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { badRequest } from './app.exception';

/**
 * A member's id in a path, in the one spelling services compare and store (lower case). Not a
 * UUID: 400 'userId must be a UUID'.
 */
@Injectable()
export class MemberIdPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (typeof value !== 'string' || !isUUID(value)) throw badRequest('userId must be a UUID');
    return value.toLowerCase();
  }
}
