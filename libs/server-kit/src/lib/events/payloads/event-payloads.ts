import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import type { EventName, EventPayloads } from '@mate/contracts';
import {
  MemberActiveEvent,
  UserDeletedEvent,
  UserEmailChangedEvent,
  UserRegisteredEvent,
  UserSuspendedEvent,
  UserUnsuspendedEvent,
  UserVerifiedEvent,
} from './account.payloads';
import {
  OnboardingCompletedEvent,
  PhotoDeletedEvent,
  PhotoModeratedEvent,
  PhotoUploadedEvent,
  PreferencesUpdatedEvent,
  ProfileUpdatedEvent,
} from './profile.payloads';
import { LikeCreatedEvent, MatchCreatedEvent, PassCreatedEvent } from './matching.payloads';
import {
  MatchEndedEvent,
  ReportCreatedEvent,
  ReportResolvedEvent,
  UserBlockedEvent,
  UserUnblockedEvent,
} from './safety.payloads';
import { CallEndedEvent, MessageSentEvent } from './chat-call.payloads';

/**
 * The payload class of every entry of the event catalogue (`EVENT_CATALOGUE` in @mate/contracts),
 * keyed by its name: the type makes a catalogue name without a class, or a class that does not
 * match its payload interface, a compile error. Server-side only: the contracts stay free of
 * class-validator, which the web apps would otherwise bundle.
 */
export const EVENT_PAYLOAD_CLASSES: { readonly [N in EventName]: ClassConstructor<EventPayloads[N]> } = {
  'user.registered': UserRegisteredEvent,
  'user.verified': UserVerifiedEvent,
  'user.email_changed': UserEmailChangedEvent,
  'profile.updated': ProfileUpdatedEvent,
  'photo.uploaded': PhotoUploadedEvent,
  'photo.deleted': PhotoDeletedEvent,
  'onboarding.completed': OnboardingCompletedEvent,
  'preferences.updated': PreferencesUpdatedEvent,
  'like.created': LikeCreatedEvent,
  'match.created': MatchCreatedEvent,
  'message.sent': MessageSentEvent,
  'user.blocked': UserBlockedEvent,
  'user.unblocked': UserUnblockedEvent,
  'match.ended': MatchEndedEvent,
  'report.created': ReportCreatedEvent,
  'user.deleted': UserDeletedEvent,
  'user.suspended': UserSuspendedEvent,
  'user.unsuspended': UserUnsuspendedEvent,
  'pass.created': PassCreatedEvent,
  'call.ended': CallEndedEvent,
  'member.active': MemberActiveEvent,
  'report.resolved': ReportResolvedEvent,
  'photo.moderated': PhotoModeratedEvent,
};

/** A payload read against its class: normalised, or the fields it broke (names only, never values). */
export type PayloadReading<N extends EventName> =
  | { readable: true; payload: EventPayloads[N] }
  | { readable: false; fields: string[] };

/**
 * Reads a payload as its catalogue entry's class says: ids lower case, a pair ascending, fields
 * an older schema version lacks left absent. Fields the class does not name are kept (a newer
 * producer's additions). Every schema version the catalogue has known reads with the one class:
 * versions only ever add optional fields (docs/adr/0003-profile-api-choices.md, "Lifestyle fields").
 */
export function readEventPayload<N extends EventName>(name: N, payload: unknown): PayloadReading<N> {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload))
    return { readable: false, fields: ['payload'] };
  const read = plainToInstance(
    EVENT_PAYLOAD_CLASSES[name] as ClassConstructor<object>,
    payload,
  ) as EventPayloads[N];
  const errors = validateSync(read as object, { forbidUnknownValues: true, stopAtFirstError: true });
  if (errors.length > 0) return { readable: false, fields: fieldsOf(errors) };
  return { readable: true, payload: read };
}

function fieldsOf(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const path = parent ? `${parent}.${e.property}` : e.property;
    return e.children?.length ? fieldsOf(e.children, path) : [path];
  });
}
