import { Injectable, type PipeTransform } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { badRequest } from '@mate/server-kit';

/** A report id in the path, lower-cased; not a UUID: 400. */
@Injectable()
export class ReportIdPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (typeof value !== 'string' || !isUUID(value)) throw badRequest('reportId must be a UUID');
    return value.toLowerCase();
  }
}
