import {
  DEFAULT_REPORT_REASON,
  SafetyMessages,
  type BlockedUserDto,
  type BlockResultDto,
  type ReportReason,
  type ReportResultDto,
  type UnblockResultDto,
  type UnmatchResultDto,
} from '@mate/contracts';
import type { HttpClient } from './http';

export interface SafetyApi {
  /** POST /api/safety/block/{userId} {reason?}: blocking also unmatches; a repeated block is the same block. */
  block(userId: string, reason?: string): Promise<BlockResultDto>;
  /** DELETE /api/safety/block/{userId}: lifts the block (the match is not restored). */
  unblock(userId: string): Promise<UnblockResultDto>;
  /** GET /api/safety/blocked (spec 000 §3 blocked users), newest first. */
  getBlockedUsers(): Promise<BlockedUserDto[]>;
  /** POST /api/safety/report/{userId} {reason, details?}; the reason defaults to inappropriate_content. */
  report(userId: string, reason?: ReportReason, details?: string): Promise<ReportResultDto>;
  /** POST /api/safety/unmatch/{userId}. */
  unmatch(userId: string): Promise<UnmatchResultDto>;
}

const memberPath = (action: 'block' | 'report' | 'unmatch', userId: string) =>
  `/api/safety/${action}/${encodeURIComponent(userId)}`;

export function createSafetyApi(http: HttpClient): SafetyApi {
  return {
    block(userId, reason) {
      const trimmed = reason?.trim();
      return http.post<BlockResultDto>(memberPath('block', userId), {
        body: trimmed ? { reason: trimmed } : {},
        fallbackMessage: SafetyMessages.blockFailed,
      });
    },
    unblock(userId) {
      return http.delete<UnblockResultDto>(memberPath('block', userId), { fallbackMessage: SafetyMessages.unblockFailed });
    },
    async getBlockedUsers() {
      const body = await http.get<unknown>('/api/safety/blocked', {
        cache: 'no-store',
        fallbackMessage: SafetyMessages.blockedFailed,
      });
      return Array.isArray(body) ? (body as BlockedUserDto[]) : [];
    },
    report(userId, reason = DEFAULT_REPORT_REASON, details) {
      const trimmed = details?.trim();
      return http.post<ReportResultDto>(memberPath('report', userId), {
        body: trimmed ? { reason, details: trimmed } : { reason },
        fallbackMessage: SafetyMessages.reportFailed,
      });
    },
    unmatch(userId) {
      return http.post<UnmatchResultDto>(memberPath('unmatch', userId), { fallbackMessage: SafetyMessages.unmatchFailed });
    },
  };
}
