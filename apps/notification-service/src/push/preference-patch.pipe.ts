import { Injectable, type PipeTransform } from '@nestjs/common';
import {
  NOTIFICATION_PREFERENCE_KEYS,
  NotificationErrorCode,
  NotificationMessages,
  type NotificationPreferenceKey,
} from '@mate/contracts';
import { badRequest } from '@mate/server-kit';

export interface PreferenceChange {
  key: NotificationPreferenceKey;
  value: boolean;
}

/**
 * `PATCH /api/notifications/preferences` sends only the changed key (spec 001 §7): exactly one
 * known preference with true or false. Anything else is refused whole (400), nothing is changed.
 */
@Injectable()
export class PreferencePatchPipe implements PipeTransform<unknown, PreferenceChange> {
  transform(body: unknown): PreferenceChange {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw badRequest('Send the changed preference, e.g. { "newLikes": false }');
    const keys = Object.keys(body);
    const unknown = keys.find((k) => !(NOTIFICATION_PREFERENCE_KEYS as readonly string[]).includes(k));
    if (unknown !== undefined)
      throw badRequest(NotificationMessages.unknownPreference, NotificationErrorCode.UnknownPreference, [
        `Unknown field: ${unknown}`,
      ]);
    if (keys.length !== 1) throw badRequest('Send one changed preference at a time');
    const key = keys[0] as NotificationPreferenceKey;
    const value = (body as Record<string, unknown>)[key];
    if (typeof value !== 'boolean') throw badRequest(`${key} must be true or false`);
    return { key, value };
  }
}
