import {
  ADMIN_REPORTS_PAGE_SIZE,
  ADMIN_USER_SEARCH_DEFAULT_LIMIT,
  AUDIT_PAGE_SIZE,
  type AdminCommandResultDto,
  type AdminReportDetailDto,
  type AdminReportDto,
  type AdminStatsDto,
  type AdminUserDetailDto,
  type AdminUserSummaryDto,
  type AnalyticsOverviewDto,
  type AuditAction,
  type AuditLogPageDto,
  type EngagementDto,
  type MatchAnalyticsDto,
  type PendingPhotosResponseDto,
  type ReportReason,
  type ReportResolutionStatus,
  type ReportStatusFilter,
  type ReportTrendRowDto,
  type RetentionDto,
  type SafetyAnalyticsDto,
  type UserGrowthRowDto,
} from '@mate/contracts';
import { AdminMessages } from './admin-messages';
import type { HttpClient } from './http';

export interface AdminReportsQuery {
  /** `all` (or none) sends no status (spec 001 §7). */
  status?: ReportStatusFilter;
  limit?: number;
  reason?: ReportReason | string;
  offset?: number;
}

export interface AuditLogQuery {
  action?: AuditAction | '';
  search?: string;
  /** YYYY-MM-DD or an ISO timestamp. */
  startDate?: string;
  endDate?: string;
  limit?: number;
  offset?: number;
}

/** One page of `GET /admin/reports`: the reports, and how many match the filters (`X-Total-Count`). */
export interface AdminReportsPage {
  reports: AdminReportDto[];
  /** Reports matching the filters, all pages together; null when the server did not say. */
  total: number | null;
  limit: number;
  offset: number;
  /** Whether a page follows this one (from `total`; without it, whether this page came back full). */
  hasMore: boolean;
}

/** `POST /api/admin/queues/session`: a single-use link (on the API origin) into the queue dashboard. */
export interface QueueDashboardSessionDto {
  url: string;
}

/**
 * The admin calls of spec 001 §7. The moderation calls (reports, users, photos) use the `/admin`
 * reading of the API base; statistics, analytics, audit and the queue dashboard the `/api/admin`
 * one, as the spec's screens do (admin-service serves both). Mutations answer
 * AdminCommandResultDto: 200 once applied, 202 when accepted and still being carried out.
 */
export interface AdminApi {
  /** GET /admin/reports?status&limit=20&reason&offset → a JSON array (X-Total-Count has the total). */
  getReports(query?: AdminReportsQuery): Promise<AdminReportDto[]>;
  /** The same call, read with its `X-Total-Count`: a page of the reports screen. */
  getReportsPage(query?: AdminReportsQuery): Promise<AdminReportsPage>;
  getReport(reportId: string): Promise<AdminReportDetailDto>;
  /** PATCH /admin/reports/{id} {status, resolution}: only a pending report moves. */
  updateReport(reportId: string, status: ReportResolutionStatus, resolution?: string): Promise<AdminCommandResultDto>;
  getUser(userId: string): Promise<AdminUserDetailDto>;
  suspendUser(userId: string, reason: string): Promise<AdminCommandResultDto>;
  unsuspendUser(userId: string): Promise<AdminCommandResultDto>;
  deleteUser(userId: string): Promise<AdminCommandResultDto>;
  searchUsers(q: string, limit?: number): Promise<AdminUserSummaryDto[]>;
  getPendingPhotos(): Promise<PendingPhotosResponseDto>;
  approvePhoto(photoId: string): Promise<AdminCommandResultDto>;
  rejectPhoto(photoId: string, reason: string): Promise<AdminCommandResultDto>;
  /** GET /api/admin/stats. */
  getStats(): Promise<AdminStatsDto>;
  getOverview(): Promise<AnalyticsOverviewDto>;
  getUserGrowth(days: number): Promise<UserGrowthRowDto[]>;
  getEngagement(days: number): Promise<EngagementDto>;
  getMatchAnalytics(days: number): Promise<MatchAnalyticsDto>;
  getRetention(): Promise<RetentionDto>;
  getSafety(): Promise<SafetyAnalyticsDto>;
  getReportTrends(days: number): Promise<ReportTrendRowDto[]>;
  /** GET /api/admin/audit?action&search&startDate&endDate&limit=50&offset, newest first. */
  getAuditLogs(query?: AuditLogQuery): Promise<AuditLogPageDto>;
  /** POST /api/admin/queues/session → `{ url }`, relative to the API origin. */
  createQueueDashboardSession(): Promise<QueueDashboardSessionDto>;
  /** The absolute address of a path on the API origin (queue dashboard link, photos); absolute URLs as they are. */
  apiUrl(path: string): string;
}

const id = (value: string) => encodeURIComponent(value);

function arrayOf<T>(body: unknown): T[] {
  return Array.isArray(body) ? (body as T[]) : [];
}

/** A count header as a whole number, or null when absent or not one. */
function countHeader(headers: Headers, name: string): number | null {
  const value = headers.get(name);
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : null;
}

function blank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

export function createAdminApi(http: HttpClient): AdminApi {
  const analytics = <T>(path: string, days?: number) =>
    http.get<T>(`/api/admin/analytics/${path}`, {
      query: days === undefined ? undefined : { days },
      cache: 'no-store',
      fallbackMessage: AdminMessages.requestFailed,
    });
  const getReportsPage: AdminApi['getReportsPage'] = async ({ status, limit = ADMIN_REPORTS_PAGE_SIZE, reason, offset = 0 } = {}) => {
    const { body, headers } = await http.getWithHeaders<unknown>('/admin/reports', {
      query: { status: status && status !== 'all' ? status : undefined, limit, reason: blank(reason), offset: offset || undefined },
      cache: 'no-store',
      fallbackMessage: AdminMessages.getReportsFailed,
    });
    const reports = arrayOf<AdminReportDto>(body);
    const total = countHeader(headers, 'X-Total-Count');
    return { reports, total, limit, offset, hasMore: total === null ? reports.length >= limit : offset + reports.length < total };
  };
  return {
    async getReports(query) {
      return (await getReportsPage(query)).reports;
    },
    getReportsPage,
    getReport(reportId) {
      return http.get(`/admin/reports/${id(reportId)}`, { cache: 'no-store', fallbackMessage: AdminMessages.getReportFailed });
    },
    updateReport(reportId, status, resolution) {
      const note = blank(resolution);
      return http.patch(`/admin/reports/${id(reportId)}`, {
        body: note ? { status, resolution: note } : { status },
        fallbackMessage: AdminMessages.updateReportFailed,
      });
    },
    getUser(userId) {
      return http.get(`/admin/users/${id(userId)}`, { cache: 'no-store', fallbackMessage: AdminMessages.getUserFailed });
    },
    suspendUser(userId, reason) {
      return http.post(`/admin/users/${id(userId)}/suspend`, {
        body: { reason: reason.trim() },
        fallbackMessage: AdminMessages.suspendFailed,
      });
    },
    unsuspendUser(userId) {
      return http.post(`/admin/users/${id(userId)}/unsuspend`, { fallbackMessage: AdminMessages.unsuspendFailed });
    },
    deleteUser(userId) {
      return http.delete(`/admin/users/${id(userId)}`, { fallbackMessage: AdminMessages.deleteFailed });
    },
    async searchUsers(q, limit = ADMIN_USER_SEARCH_DEFAULT_LIMIT) {
      const body = await http.get<unknown>('/admin/users/search', {
        query: { q, limit },
        cache: 'no-store',
        fallbackMessage: AdminMessages.searchFailed,
      });
      return arrayOf<AdminUserSummaryDto>(body);
    },
    async getPendingPhotos() {
      const body = await http.get<Partial<PendingPhotosResponseDto> | undefined>('/admin/photos/pending', {
        cache: 'no-store',
        fallbackMessage: AdminMessages.getPendingPhotosFailed,
      });
      return {
        photos: arrayOf(body?.photos),
        stats: body?.stats ?? { totalPending: 0, approvedToday: 0, rejectedToday: 0 },
      };
    },
    approvePhoto(photoId) {
      return http.post(`/admin/photos/${id(photoId)}/approve`, { fallbackMessage: AdminMessages.approvePhotoFailed });
    },
    rejectPhoto(photoId, reason) {
      return http.post(`/admin/photos/${id(photoId)}/reject`, {
        body: { reason: reason.trim() },
        fallbackMessage: AdminMessages.rejectPhotoFailed,
      });
    },
    getStats() {
      return http.get('/api/admin/stats', { cache: 'no-store', fallbackMessage: AdminMessages.dashboardLoadFailed });
    },
    getOverview: () => analytics('overview'),
    getUserGrowth: async (days) => arrayOf<UserGrowthRowDto>(await analytics('user-growth', days)),
    getEngagement: (days) => analytics('engagement', days),
    getMatchAnalytics: (days) => analytics('matches', days),
    getRetention: () => analytics('retention'),
    getSafety: () => analytics('safety'),
    getReportTrends: async (days) => arrayOf<ReportTrendRowDto>(await analytics('report-trends', days)),
    async getAuditLogs({ action, search, startDate, endDate, limit = AUDIT_PAGE_SIZE, offset = 0 } = {}) {
      const body = await http.get<Partial<AuditLogPageDto> | undefined>('/api/admin/audit', {
        query: { action: action || undefined, search: blank(search), startDate: blank(startDate), endDate: blank(endDate), limit, offset },
        cache: 'no-store',
        fallbackMessage: AdminMessages.requestFailed,
      });
      return {
        logs: arrayOf(body?.logs),
        total: typeof body?.total === 'number' ? body.total : 0,
        limit: typeof body?.limit === 'number' ? body.limit : limit,
        offset: typeof body?.offset === 'number' ? body.offset : offset,
      };
    },
    createQueueDashboardSession() {
      return http.post('/api/admin/queues/session', { fallbackMessage: AdminMessages.requestFailed });
    },
    apiUrl(path) {
      // Photo URLs may already be absolute (S3-compatible storage in production).
      return /^[a-z][a-z0-9+.-]*:/i.test(path) ? path : http.url(path);
    },
  };
}
