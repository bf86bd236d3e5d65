import { Injectable, type PipeTransform } from '@nestjs/common';
import { badRequest } from './app.exception';

/** A route that takes no body: nothing, or an empty JSON object; any field is refused (400). */
@Injectable()
export class EmptyBodyPipe implements PipeTransform<unknown, undefined> {
  transform(value: unknown): undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('This request takes no body');
    const [field] = Object.keys(value);
    if (field !== undefined) throw badRequest(`Unknown field: ${field}`);
    return undefined;
  }
}
