import { messageLength, normalizeMessageContent, SafetyErrorCode } from '@mate/contracts';
import { badRequest } from '@mate/server-kit';

/**
 * A member's free text (a block reason, a report's details) as it is kept: control characters and
 * bidi overrides stripped, trimmed (chat's normalizeMessageContent), null when nothing visible is
 * left; longer than `max` code points after that: 400 with `tooLong`.
 */
export function memberText(value: string | undefined, max: number, tooLong: string): string | null {
  if (value === undefined) return null;
  const text = normalizeMessageContent(value);
  if (text === '') return null;
  if (messageLength(text) > max) throw badRequest(tooLong, SafetyErrorCode.TextTooLong);
  return text;
}
