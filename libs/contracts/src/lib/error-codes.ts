import { AdminErrorCode } from './admin';
import { AuthErrorCode, GdprErrorCode } from './auth';
import { CallErrorCode } from './calls';
import { ChatErrorCode } from './chat';
import { ErrorCode } from './errors';
import { MatchingErrorCode } from './matching';
import { NotificationErrorCode } from './notifications';
import { ProfileErrorCode } from './profile';
import { SafetyErrorCode } from './safety';

/**
 * Every code an error body's `code` may carry: the shared `ErrorCode` of the kit and the edge, and
 * each module's own, next to that module's messages. Values are unique across all of them, so a
 * client reads the cause from the code alone.
 */
export type ApiErrorCode =
  | ErrorCode
  | AuthErrorCode
  | GdprErrorCode
  | ProfileErrorCode
  | MatchingErrorCode
  | ChatErrorCode
  | CallErrorCode
  | SafetyErrorCode
  | NotificationErrorCode
  | AdminErrorCode;

/** The code enums by owner, for the API description and the check that no two share a value. */
export const ERROR_CODE_ENUMS = {
  shared: ErrorCode,
  auth: AuthErrorCode,
  gdpr: GdprErrorCode,
  profile: ProfileErrorCode,
  matching: MatchingErrorCode,
  chat: ChatErrorCode,
  call: CallErrorCode,
  safety: SafetyErrorCode,
  notification: NotificationErrorCode,
  admin: AdminErrorCode,
} as const;

/** All codes, each once. */
export const API_ERROR_CODES: readonly ApiErrorCode[] = [
  ...new Set(Object.values(ERROR_CODE_ENUMS).flatMap((codes) => Object.values(codes) as ApiErrorCode[])),
];
