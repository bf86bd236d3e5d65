import { ADMIN_REPORTS_PAGE_SIZE, type ReportResolutionStatus, type ReportStatusFilter } from '@mate/contracts';
import type { AdminReportsPage } from '@mate/api-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { useReloadWhenAccepted } from '../../lib/useReloadWhenAccepted';

/** Page `page` (from 1) of a filter view: the dashboard reads page 1 of the same cache entry. */
export const reportsPageKey = (filter: ReportStatusFilter, page: number) => ['admin', 'reports', filter, page] as const;

/**
 * One page of `GET /admin/reports` (spec 001 §7: status, limit 20, offset) with the total the
 * server sends. `select` lets the dashboard keep its first three of the same page.
 */
export function useReportsPage<T = AdminReportsPage>(filter: ReportStatusFilter, page: number, select?: (page: AdminReportsPage) => T) {
  const { admin } = useApi();
  return useQuery({
    queryKey: reportsPageKey(filter, page),
    queryFn: () => admin.getReportsPage({ status: filter, offset: (page - 1) * ADMIN_REPORTS_PAGE_SIZE }),
    select,
  });
}

export interface ResolveReportInput {
  reportId: string;
  status: ReportResolutionStatus;
  resolution?: string;
}

/** Mark Reviewed / Dismiss with an optional note; afterwards every admin view reloads (spec 001 §4). */
export function useResolveReport() {
  const { admin } = useApi();
  const queryClient = useQueryClient();
  const reloadWhenAccepted = useReloadWhenAccepted();
  return useMutation({
    mutationFn: ({ reportId, status, resolution }: ResolveReportInput) => admin.updateReport(reportId, status, resolution),
    onSuccess: reloadWhenAccepted,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
