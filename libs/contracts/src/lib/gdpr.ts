import type { AccountExportPart } from './auth';
import type { CallsExportPart } from './calls';
import type { ChatExportPart } from './chat';
import type { ServiceName } from './events';
import type { MatchingExportPart } from './matching';
import type { NotificationsExportPart } from './notifications';
import type { ProfileExportPart } from './profile';
import type { SafetyExportPart } from './safety';

/**
 * Privacy and data (issue 12, spec 001 §2 Privacy and data, §7): `POST /api/gdpr/export` and
 * `POST /api/gdpr/delete-account` (auth-service orchestrates). Every service that keeps member
 * data serves its part of the export at `GET /internal/gdpr/members/{userId}/export` (internal
 * credential only) and erases the member on `user.deleted` (docs/adr/0016-member-data.md).
 */

/** Which service answers each part of the export. */
export const EXPORT_PART_SERVICES = {
  account: 'auth-service',
  profile: 'profile-service',
  matching: 'matching-service',
  chat: 'chat-service',
  calls: 'call-service',
  safety: 'safety-service',
  notifications: 'notification-service',
} as const satisfies Record<string, ServiceName>;
export type ExportPartName = keyof typeof EXPORT_PART_SERVICES;

export interface ExportParts {
  account: AccountExportPart;
  profile: ProfileExportPart;
  matching: MatchingExportPart;
  chat: ChatExportPart;
  calls: CallsExportPart;
  safety: SafetyExportPart;
  notifications: NotificationsExportPart;
}

/** The one JSON document a member downloads (`mate-data-export-{date}.json`). */
export interface MemberDataExport extends ExportParts {
  format: 'mate-data-export';
  formatVersion: 1;
  userId: string;
  exportedAt: string;
}

/** `POST /api/gdpr/export`. */
export interface GdprExportResponse {
  data: MemberDataExport;
}

/** The internal route every service with member data serves (the part's service answers it). */
export function memberExportPath(userId: string): string {
  return `/internal/gdpr/members/${userId}/export`;
}

/** Name a deleted member is shown under where another member keeps something of theirs. */
export const DELETED_MEMBER_NAME = 'Unknown User';
