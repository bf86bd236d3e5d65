import { DAY, HOUR, SECOND } from './constants';

/**
 * Safety (issue 10; spec 000 §2 Safety and privacy, §3 blocked user and report, §4 safety
 * actions, §7 API, §8 error texts). safety-service owns blocks, reports and unmatch requests and
 * tells every other service through the pair events of the catalogue (`user.blocked`,
 * `user.unblocked`, `match.ended`: one aggregate per pair of members, each carrying the pair's
 * whole block state) and the fact `report.created`.
 */

/** Spec 000 §3 report reasons, in the order the report dialog lists them; the first is the default. */
export const REPORT_REASONS = ['inappropriate_content', 'harassment', 'fake_profile', 'spam', 'underage', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const DEFAULT_REPORT_REASON: ReportReason = 'inappropriate_content';

/** Labels the report dialog shows for each reason. */
export const REPORT_REASON_LABELS: Readonly<Record<ReportReason, string>> = {
  inappropriate_content: 'Inappropriate content',
  harassment: 'Harassment',
  fake_profile: 'Fake profile',
  spam: 'Spam',
  underage: 'Underage',
  other: 'Other',
};

export const REPORT_DETAILS_MAX_LENGTH = 1000;
export const BLOCK_REASON_MAX_LENGTH = 500;
/** One report per reporter and reported member per this window. */
export const REPORT_REPEAT_WINDOW_MS = DAY;
/** Per-member limits (server-enforced). */
export const REPORTS_PER_HOUR = 10;
export const BLOCK_ACTIONS_PER_HOUR = 60;
/** The blocked list answers at most this many, newest first. */
export const BLOCKED_LIST_MAX = 1000;
/** A report keeps the last this-many messages between the two members. */
export const REPORT_MESSAGE_SNAPSHOT_SIZE = 20;
/** Issue 10: every service honours a block or an unmatch within this time. */
export const SAFETY_PROPAGATION_MS = 1 * SECOND;
/** Spec 000 §4 and §9: block and unmatch reload after 1.5 s; report closes after 2 s. */
export const BLOCK_RELOAD_DELAY_MS = 1.5 * SECOND;
export const UNMATCH_RELOAD_DELAY_MS = 1.5 * SECOND;
export const REPORT_CLOSE_DELAY_MS = 2 * SECOND;
/** The window of the per-member block and report limits. */
export const SAFETY_RATE_WINDOW_MS = HOUR;

/** `POST /api/safety/block/{userId}` body (spec 000 §7: reason, optional). */
export interface BlockRequestDto {
  reason?: string;
}

/** Spec 000 §3 "Blocked user": one entry of `GET /api/safety/blocked`, newest first. */
export interface BlockedUserDto {
  /** The block's id. */
  id: string;
  blockedId: string;
  /** The blocked member's profile name, or null when unknown (the app shows 'Unknown User'). */
  name: string | null;
  /** The blocked member's primary photo URL, or null. */
  photo: string | null;
  createdAt: string;
}

/** `POST /api/safety/block/{userId}`: the block (the same one again for a repeated block). */
export type BlockResultDto = BlockedUserDto;

/** `DELETE /api/safety/block/{userId}`: `unblocked` is false when there was no block to remove. */
export interface UnblockResultDto {
  unblocked: boolean;
}

/** `POST /api/safety/report/{userId}` body (spec 000 §3 "Report (outgoing)"). */
export interface ReportRequestDto {
  reason?: ReportReason;
  details?: string;
}

export interface ReportResultDto {
  id: string;
  reportedId: string;
  reason: ReportReason;
  createdAt: string;
}

/** `POST /api/safety/unmatch/{userId}`. */
export interface UnmatchResultDto {
  unmatched: true;
  /** The match that ended. */
  matchId: string;
}

/**
 * The state every pair event carries whole (ARCHITECTURE §2.1, ADR 0014): consumers apply a pair
 * event only when it is newer than the last one applied for the pair, so each one says everything
 * a consumer needs. `pairId` is `pairIdOf(a, b)`.
 */
export interface PairState {
  pairId: string;
  /** The two members, ascending. */
  userIds: [string, string];
  /** Who of the two blocks the other after this event (empty: neither; the pair may meet again). */
  blockedBy: string[];
}

/** `'<smaller id>:<larger id>'`: the aggregate id of a pair of members, the same whoever acts. */
export function pairIdOf(a: string, b: string): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

/** The two ids of a pair, ascending. */
export function orderedPairOf(a: string, b: string): [string, string] {
  return a < b ? [a, b] : [b, a];
}

/** True when the pair state says one of the two blocks the other. */
export function isPairBlocked(state: Pick<PairState, 'blockedBy'>): boolean {
  return state.blockedBy.length > 0;
}

/** Texts of safety's refusals and screens (spec 000 §2, §4, §8), shared by service, app and tests. */
export const SafetyMessages = {
  blockSelf: "You can't block yourself",
  reportSelf: "You can't report yourself",
  unmatchSelf: "You can't unmatch yourself",
  memberNotFound: 'Member not found',
  /** 404 on unmatch: there is no match between the two. */
  notMatched: 'You are not matched with this member',
  /** 409: the same reporter reported the same member within 24 hours. */
  alreadyReported: 'You already reported this member in the last 24 hours',
  tooManyReports: 'Too many reports. Please try again later.',
  tooManyBlocks: 'Too many block requests. Please try again later.',
  invalidReason: `reason must be one of: ${REPORT_REASONS.join(', ')}`,
  detailsTooLong: `details must be at most ${REPORT_DETAILS_MAX_LENGTH.toLocaleString('en-US')} characters`,
  blockReasonTooLong: `reason must be at most ${BLOCK_REASON_MAX_LENGTH} characters`,
  /** Spec 000 §8. */
  blockFailed: 'Failed to block user',
  unblockFailed: 'Failed to unblock user',
  reportFailed: 'Failed to report user',
  unmatchFailed: 'Failed to unmatch',
  blockedFailed: 'Failed to get blocked users',
  /** Spec 000 §8: how the Safety screen shows the blocked list's failure. */
  loadBlockedFailed: 'Failed to load blocked users',
} as const;

/** Codes of safety's refusals, one per cause. */
export enum SafetyErrorCode {
  BlockSelf = 'BLOCK_SELF',
  ReportSelf = 'REPORT_SELF',
  UnmatchSelf = 'UNMATCH_SELF',
  /** The member to block or report does not exist. */
  MemberNotFound = 'SAFETY_MEMBER_NOT_FOUND',
  /** Unmatch with no match between the two. */
  NothingToUnmatch = 'NOTHING_TO_UNMATCH',
  AlreadyReported = 'ALREADY_REPORTED',
  /** A block reason or a report's details over its length. */
  TextTooLong = 'SAFETY_TEXT_TOO_LONG',
  ReportNotFound = 'REPORT_NOT_FOUND',
}

/** Screen and dialog texts of spec 000 §2 and §4, word for word where the spec gives them. */
export const SafetyTexts = {
  title: 'Safety & Privacy',
  blockedUsers: 'Blocked Users',
  noBlockedUsers: "You haven't blocked anyone",
  blockedOn: 'Blocked',
  unblock: 'Unblock',
  privacySettings: 'Privacy Settings',
  profileVisibility: 'Profile Visibility',
  profileVisibilityValue: 'Everyone',
  showInDiscovery: 'Show Me in Discovery',
  showInDiscoveryValue: 'Active',
  moreControls: 'Additional privacy controls coming soon',
  safetyTips: 'Safety Tips',
  tips: [
    'Meet in a public place the first few times, and tell a friend where you are going.',
    'Keep conversations on Mate until you trust someone; never share your address or financial details.',
    'Never send money or gift cards to someone you have not met in person.',
    'Video call before you meet, so you know the person is who their profile says.',
    'Trust your instincts: if something feels wrong, leave, then block and report the member.',
  ],
  needHelp: 'Need Help?',
  needHelpBody: 'If someone on Mate makes you feel unsafe, block and report them. Our moderators review every report.',
  emergency: 'If you are in immediate danger, call your local emergency number.',
  /** The chat header's safety menu (spec 000 §2 Chat). */
  unmatch: 'Unmatch',
  block: 'Block',
  report: 'Report',
  /** Spec 000 §4 "Safety actions". */
  userBlocked: 'User Blocked',
  userBlockedBody: "You won't see each other anymore",
  unmatched: 'Unmatched',
  reportSubmitted: 'Report Submitted',
  reportSubmittedBody: 'Thank you for helping keep our community safe',
} as const;

/** Safety's part of a data export (issue 12; safety-service): blocks and reports the member made. */
export interface SafetyExportPart {
  blocks: { userId: string; createdAt: string }[];
  reports: { id: string; reportedUserId: string; reason: string; details: string | null; status: string; createdAt: string }[];
  unmatches: { userId: string; endedAt: string }[];
}
