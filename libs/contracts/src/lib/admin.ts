import { DAY, HOUR, SECOND } from './constants';
import type { Role } from './constants';
import type { ReportReason } from './safety';

/**
 * The admin area (issue 13; spec 001 §2 admin screens, §3 entities, §5 validation, §7 calls, §8
 * errors). admin-service answers every admin call under both readings of the spec's API base
 * (`/admin/...` and `/api/admin/...`); the gateway forwards both prefixes only for sessions with
 * role admin, and admin-service checks the role again (ARCHITECTURE §4).
 *
 * admin-service owns the audit log and the analytics event store. Everything else it shows is
 * owned elsewhere and read through typed internal calls with a timeout (`/internal/admin/...`,
 * internal credential only); everything it changes is a command (a job) written to its outbox in
 * the transaction of the audit entry, carried out by the owning service.
 */

/** Both readings of the admin API base (spec 001 §7). */
export const ADMIN_API_PREFIXES = ['/admin', '/api/admin'] as const;

/**
 * Codes of admin-service's own refusals, one per cause. A report, photo or account that does not
 * exist is told with its owner's code (`SafetyErrorCode.ReportNotFound`, ...).
 */
export enum AdminErrorCode {
  ReportNotPending = 'REPORT_NOT_PENDING',
  PhotoAlreadyReviewed = 'PHOTO_ALREADY_REVIEWED',
  AlreadySuspended = 'ALREADY_SUSPENDED',
  NotSuspended = 'NOT_SUSPENDED',
  /** An admin's command on their own account. */
  OwnAccount = 'OWN_ACCOUNT',
  /** An admin's account as the target of a moderation command (issue 24). */
  AdminNotATarget = 'ADMIN_NOT_A_TARGET',
  /** An audit search whose start is not before its end. */
  DateRangeOrder = 'DATE_RANGE_ORDER',
}

// ---------------------------------------------------------------------------------------------
// Limits (spec 001 §9; server-enforced)
// ---------------------------------------------------------------------------------------------

export const ADMIN_REPORTS_PAGE_SIZE = 20;
export const ADMIN_REPORTS_MAX_LIMIT = 100;
export const ADMIN_USER_SEARCH_DEFAULT_LIMIT = 20;
export const ADMIN_USER_SEARCH_MAX_LIMIT = 100;
export const ADMIN_USER_SEARCH_QUERY_MAX_LENGTH = 100;
export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_MAX_LIMIT = 200;
export const AUDIT_SEARCH_MAX_LENGTH = 200;
/** Suspension reasons, resolution notes and rejection reasons are bounded (auth stores the reason). */
export const SUSPENSION_REASON_MAX_LENGTH = 500;
export const REPORT_RESOLUTION_MAX_LENGTH = 1000;
export const PHOTO_REJECTION_REASON_MAX_LENGTH = 500;
/** Spec 001 §9: periods 7, 30, 90 days, default 30; the API accepts any whole number up to the max. */
export const ANALYTICS_PERIODS = [7, 30, 90] as const;
export const DEFAULT_ANALYTICS_DAYS = 30;
export const ANALYTICS_MAX_DAYS = 365;
/** Spec 001 §9: photos and audit logs reload every 30 s. */
export const PHOTO_QUEUE_REFRESH_MS = 30 * SECOND;
export const AUDIT_REFRESH_MS = 30 * SECOND;
/**
 * How long an admin call waits for the owning service to carry out its command before answering
 * 202 (accepted, will be applied) instead of 200 (applied). The command is durable either way.
 */
export const ADMIN_COMMAND_WAIT_MS = 5 * SECOND;
/** Timeout of each internal call that composes an admin view; a part that misses it shows as N/A. */
export const ADMIN_PART_TIMEOUT_MS = 2 * SECOND;
/** "Active" in statistics and analytics: seen within this window. */
export const ADMIN_ACTIVE_WINDOW_MS = 30 * DAY;
/** Default risk above which a freshly scored photo is hidden from other members until approved. */
export const PHOTO_RISK_THRESHOLD_DEFAULT = 0.7;
/** A photo not scored after this long is shown in the queue as unscored (the scan is ~60 ms). */
export const PHOTO_SCAN_STALE_MS = 1 * HOUR;

// ---------------------------------------------------------------------------------------------
// Reports (spec 001 §3 Report, §4 report status)
// ---------------------------------------------------------------------------------------------

export const REPORT_STATUSES = ['pending', 'reviewed', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
/** The statuses a pending report may move to (only pending moves; spec 001 §4). */
export const REPORT_RESOLUTION_STATUSES = ['reviewed', 'dismissed'] as const;
export type ReportResolutionStatus = (typeof REPORT_RESOLUTION_STATUSES)[number];
/** Dashboard filter values (spec 001 §9); `all` sends no status. Default pending. */
export const REPORT_STATUS_FILTERS = ['all', 'pending', 'reviewed', 'dismissed'] as const;
export type ReportStatusFilter = (typeof REPORT_STATUS_FILTERS)[number];
export const DEFAULT_REPORT_STATUS_FILTER: ReportStatusFilter = 'pending';
/** The dashboard shows the first this-many reports of each filter view (spec 001 §2). */
export const DASHBOARD_REPORTS_SHOWN = 3;

/** Spec 001 §3 labels of the admin screens (the member app's report dialog has its own). Unknown reasons show as they are. */
export const ADMIN_REPORT_REASON_LABELS: Readonly<Record<ReportReason, string>> = {
  inappropriate_content: 'Inappropriate Content',
  harassment: 'Harassment or Bullying',
  fake_profile: 'Fake Profile or Scam',
  spam: 'Spam or Advertising',
  underage: 'Appears to be Underage',
  other: 'Other',
};

/** One report as admins see it (spec 001 §3): names and emails are shown to admins only. */
export interface AdminReportDto {
  id: string;
  status: ReportStatus;
  reason: ReportReason;
  details: string | null;
  resolution: string | null;
  createdAt: string;
  resolvedAt: string | null;
  reporterId: string;
  /** null when the part did not answer or the member is gone (the app shows N/A or Unknown User). */
  reporterName: string | null;
  reporterEmail: string | null;
  reportedUserId: string;
  reportedUserName: string | null;
  reportedUserEmail: string | null;
}

/** A message kept with a report (safety's snapshot of the last messages between the two). */
export interface ReportSnapshotMessageDto {
  id: string;
  senderId: string;
  content: string;
  createdAt: string;
}

/** `GET /admin/reports/{id}`: the report with what safety-service kept when it was made. */
export interface AdminReportDetailDto extends AdminReportDto {
  snapshot: {
    /** The reported member's profile as it was when reported (safety's copy), or null. */
    reportedProfile: Record<string, unknown> | null;
    /** `captured`: `messages` holds the last messages; `pending`: chat has not answered yet; `none`: no conversation. */
    messagesStatus: string;
    messages: ReportSnapshotMessageDto[];
    messagesCapturedAt: string | null;
  };
}

/** `PATCH /admin/reports/{id}` body. */
export interface UpdateReportRequestDto {
  status: ReportResolutionStatus;
  resolution?: string;
}

/**
 * What every mutating admin call answers: 200 with `applied: true` once the owning service has
 * carried out the command, or 202 with `applied: false` when it did not within
 * ADMIN_COMMAND_WAIT_MS (the command is durable and will be carried out).
 */
export interface AdminCommandResultDto {
  applied: boolean;
  /** The audit entry written with the command. */
  auditId: string;
}

// ---------------------------------------------------------------------------------------------
// Users (spec 001 §3 Admin user detail)
// ---------------------------------------------------------------------------------------------

export interface AdminPhotoRefDto {
  id: string;
  url: string;
}

/**
 * `GET /admin/users/{id}`, composed from auth (account), profile, matching and safety. A field whose
 * part did not answer is null (the app shows N/A; a null `lastActive` shows Never) and the part is
 * named in `unavailable`. 404 `User not found` only when auth-service answers that the account does
 * not exist.
 */
export interface AdminUserDetailDto {
  id: string;
  name: string | null;
  email: string | null;
  age: number | null;
  gender: string | null;
  location: string | null;
  role: Role | null;
  bio: string | null;
  createdAt: string | null;
  lastActive: string | null;
  isVerified: boolean | null;
  isActive: boolean | null;
  isSuspended: boolean | null;
  suspendedAt: string | null;
  suspensionReason: string | null;
  photos: AdminPhotoRefDto[];
  matchCount: number | null;
  reportsMade: number | null;
  reportsReceived: number | null;
  unavailable: AdminUserPart[];
}
export type AdminUserPart = 'account' | 'profile' | 'matching' | 'safety';

/** `POST /admin/users/{id}/suspend` body. */
export interface SuspendUserRequestDto {
  reason: string;
}

/** One hit of `GET /admin/users/search?q&limit` (matches name or email, case-insensitive). */
export interface AdminUserSummaryDto {
  id: string;
  name: string | null;
  email: string;
  role: Role;
  isSuspended: boolean;
  isVerified: boolean;
  createdAt: string;
}

// ---------------------------------------------------------------------------------------------
// Photos (spec 001 §3 Pending photo; issue 13 photo review)
// ---------------------------------------------------------------------------------------------

export const PHOTO_MODERATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type PhotoModerationStatus = (typeof PHOTO_MODERATION_STATUSES)[number];

/** nsfwjs's five classes, each a probability in [0, 1]. */
export const PHOTO_CLASSES = ['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy'] as const;
export type PhotoClass = (typeof PHOTO_CLASSES)[number];
export type PhotoScores = Readonly<Record<PhotoClass, number>>;

/** The risk of a scored photo: the probability it is explicit or suggestive (Porn + Hentai + Sexy). */
export function photoRisk(scores: PhotoScores): number {
  return Math.min(1, scores.Porn + scores.Hentai + scores.Sexy);
}

/** One photo of the queue, riskiest first (unscored photos after scored ones, oldest first). */
export interface PendingPhotoDto {
  id: string;
  url: string;
  userId: string;
  userName: string | null;
  userEmail: string | null;
  userAge: number | null;
  userGender: string | null;
  createdAt: string;
  /** `photoRisk` of its scores, or null while not scored yet. */
  riskScore: number | null;
  scores: PhotoScores | null;
  /** True while the photo is hidden from other members (risk above the threshold, or not scored yet). */
  hiddenFromMembers: boolean;
}

export interface PhotoModerationStatsDto {
  totalPending: number;
  /** Decisions since the start of the current UTC day. */
  approvedToday: number;
  rejectedToday: number;
}

/** `GET /admin/photos/pending`. */
export interface PendingPhotosResponseDto {
  photos: PendingPhotoDto[];
  stats: PhotoModerationStatsDto;
}

/** `POST /admin/photos/{id}/reject` body. */
export interface RejectPhotoRequestDto {
  reason: string;
}

// ---------------------------------------------------------------------------------------------
// Statistics and analytics (spec 001 §3)
// ---------------------------------------------------------------------------------------------

// "A match" on every admin screen (the dashboard's Total Matches, the analytics' Total Matches
// card and Match Performance) is a mutual like that made a match, counted once (by its match id)
// from the day it was made, and still counted after the pair unmatches or blocks and after either
// member deletes their account: the matches ever made, not the ones that still stand. Every total
// of them is one count (admin-service README, "What a match is").

/** `GET /api/admin/stats` and `GET /admin/statistics`. `users.active`: seen in ADMIN_ACTIVE_WINDOW_MS. */
export interface AdminStatsDto {
  users: { total: number; active: number; suspended: number };
  reports: { total: number; pending: number; byReason: { reason: string; count: number }[] };
  /** `total`: the matches ever made, the analytics' `totalMatches`. */
  matches: { total: number };
}

/** Rates are fractions in [0, 1] (the app shows percent); times are hours. */
export interface AnalyticsOverviewDto {
  totalUsers: number;
  newUsers7d: number;
  activeUsers30d: number;
  /** The matches ever made: the statistics' `matches.total`. */
  totalMatches: number;
  totalMessages: number;
  pendingReports: number;
  onboardingCompletionRate: number;
  profileCompletionRate: number;
}
export interface UserGrowthRowDto {
  /** YYYY-MM-DD (UTC). */
  date: string;
  totalUsers: number;
  newUsers: number;
}
export interface EngagementDto {
  dau: number;
  wau: number;
  mau: number;
  avgMessagesPerMatch: number;
  messageResponseRate: number;
  /** Swipes (likes + passes) per active member per day over the period. */
  swipeRate: number;
}
/**
 * `GET /api/admin/analytics/matches?days`. "The period" is the `days` UTC days ending today;
 * `total*` count everything ever, `*InPeriod` the period, `newMatches7d`/`newMatches30d` fixed
 * windows whatever `days` is.
 */
export interface MatchAnalyticsDto {
  /** Mutual likes over likes, in the period: matchesInPeriod / likesInPeriod, at most 1. */
  matchSuccessRate: number;
  /** Every like ever made. */
  totalLikes: number;
  /** The matches ever made: the overview's `totalMatches`, the statistics' `matches.total`. */
  totalMatches: number;
  /** Likes made in the period. */
  likesInPeriod: number;
  /** Matches made in the period ("matches over the period", spec 001 §2). */
  matchesInPeriod: number;
  /** Matches each member active in the period made in it, on average (a match counts for both). */
  avgMatchesPerUser: number;
  /** Matches made in the last 7 days. */
  newMatches7d: number;
  /** Matches made in the last 30 days (kept for older clients; the period's count is matchesInPeriod). */
  newMatches30d: number;
}
export interface RetentionDto {
  d1Retention: number;
  d7Retention: number;
  d30Retention: number;
  churnRate: number;
}
export interface SafetyAnalyticsDto {
  pendingReports: number;
  resolvedReports: number;
  totalReports: number;
  /** Hours from report to resolution, over resolved reports. */
  avgResolutionTime: number;
  totalBlocks: number;
  totalSuspensions: number;
}
export interface ReportTrendRowDto {
  date: string;
  reason: string;
  count: number;
}

// ---------------------------------------------------------------------------------------------
// Audit (spec 001 §3 Audit log entry)
// ---------------------------------------------------------------------------------------------

export const AUDIT_ACTIONS = [
  'suspend_user',
  'unsuspend_user',
  'delete_user',
  'resolve_report',
  'approve_photo',
  'reject_photo',
  'update_user_role',
  'force_logout',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AUDIT_ACTION_LABELS: Readonly<Record<AuditAction, string>> = {
  suspend_user: 'Suspended User',
  unsuspend_user: 'Unsuspended User',
  delete_user: 'Deleted User',
  resolve_report: 'Resolved Report',
  approve_photo: 'Approved Photo',
  reject_photo: 'Rejected Photo',
  update_user_role: 'Updated User Role',
  force_logout: 'Forced Logout',
};
export type AuditResourceType = 'user' | 'report' | 'photo';
/**
 * `details.outcome` of an entry that records an attempt the service refused (issue 24: an admin
 * account as the target of suspend, unsuspend or delete): nothing was done; `details.error` says why.
 */
export const AUDIT_OUTCOME_REFUSED = 'refused';

export interface AuditPersonDto {
  id: string;
  /**
   * The acting admin's as they were when they acted (kept with the entry); a target's as the
   * owners have it now. null when not known (gone, or its part did not answer).
   */
  name: string | null;
  email: string | null;
  /** The account no longer exists (auth answered without it): shown as 'Deleted member'. */
  deleted: boolean;
}

export interface AuditLogEntryDto {
  id: string;
  action: AuditAction;
  admin: AuditPersonDto;
  targetUser: AuditPersonDto | null;
  createdAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  targetResourceType: AuditResourceType;
  targetResourceId: string;
  details: Record<string, unknown>;
}

/**
 * `GET /api/admin/audit?action&search&startDate&endDate&limit&offset`: newest first. `search`
 * matches the admin's or target's name or email, the resource id, or the details text.
 */
export interface AuditLogPageDto {
  logs: AuditLogEntryDto[];
  total: number;
  limit: number;
  offset: number;
}

// ---------------------------------------------------------------------------------------------
// Internal calls admin-service makes to the owning services (`/internal/admin/...`)
// ---------------------------------------------------------------------------------------------

export const INTERNAL_ADMIN_PATHS = {
  /** auth: GET one account (404 when none). */
  account: (userId: string) => `/internal/admin/accounts/${userId}`,
  /** auth: GET `?ids=a,b` (at most 200) → AdminAccountSummaryPart[] (missing ids left out). */
  accounts: '/internal/admin/accounts',
  /** auth: GET `?q&limit` → AdminAccountSummaryPart[]. */
  accountSearch: '/internal/admin/accounts/search',
  /** auth: GET → AdminAccountStatsPart. */
  accountStats: '/internal/admin/accounts/stats',
  /** profile: GET one member's profile part (404 when none). */
  profile: (userId: string) => `/internal/admin/profiles/${userId}`,
  /** profile: GET `?ids=a,b` → AdminProfileSummaryPart[]. */
  profiles: '/internal/admin/profiles',
  /** profile: GET → PendingPhotosPart (riskiest first). */
  pendingPhotos: '/internal/admin/photos/pending',
  /** profile: GET one photo (any status) → AdminPhotoPart (404 when none). */
  photo: (photoId: string) => `/internal/admin/photos/${photoId}`,
  /** matching: GET → { matchCount }. */
  matchingMember: (userId: string) => `/internal/admin/members/${userId}`,
  /** matching: GET → { matches: { total } }. */
  matchingStats: '/internal/admin/stats',
  /** safety: GET `?status&reason&limit&offset` → SafetyReportsPagePart. */
  reports: '/internal/admin/reports',
  /** safety: GET one report with its snapshot (404 when none). */
  report: (reportId: string) => `/internal/admin/reports/${reportId}`,
  /** safety: GET → { reportsMade, reportsReceived }. */
  safetyMember: (userId: string) => `/internal/admin/members/${userId}`,
  /** safety: GET → AdminStatsDto['reports']. */
  safetyStats: '/internal/admin/stats',
} as const;

export interface AdminAccountPart {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  createdAt: string;
  /** The last day (or moment) the member used the app; null when never seen since this was recorded. */
  lastActive: string | null;
  isVerified: boolean;
  /** Not suspended and not deleted. */
  isActive: boolean;
  isSuspended: boolean;
  suspendedAt: string | null;
  suspensionReason: string | null;
}
export type AdminAccountSummaryPart = AdminUserSummaryDto;
export interface AdminAccountStatsPart {
  total: number;
  active: number;
  suspended: number;
}
export interface AdminProfilePart {
  userId: string;
  name: string | null;
  age: number | null;
  gender: string | null;
  location: string | null;
  bio: string | null;
  /** Every photo but rejected ones, display order. */
  photos: AdminPhotoRefDto[];
}
export interface AdminProfileSummaryPart {
  userId: string;
  name: string | null;
  age: number | null;
  gender: string | null;
}
export interface AdminPhotoPart {
  id: string;
  userId: string;
  url: string | null;
  status: PhotoModerationStatus;
  riskScore: number | null;
  createdAt: string;
}
/** profile's queue: PendingPhotoDto without the owner's name, email, age and gender (admin joins them). */
export interface PendingPhotosPart {
  photos: Omit<PendingPhotoDto, 'userName' | 'userEmail' | 'userAge' | 'userGender'>[];
  stats: PhotoModerationStatsDto;
}
export interface SafetyReportPart {
  id: string;
  status: ReportStatus;
  reason: ReportReason;
  details: string | null;
  resolution: string | null;
  reporterId: string;
  reportedId: string;
  createdAt: string;
  resolvedAt: string | null;
}
export interface SafetyReportsPagePart {
  reports: SafetyReportPart[];
  total: number;
}
export interface SafetyReportDetailPart extends SafetyReportPart {
  snapshot: AdminReportDetailDto['snapshot'];
}
