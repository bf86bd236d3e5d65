import { DASHBOARD_REPORTS_SHOWN, type ReportResolutionStatus, type ReportStatusFilter } from '@mate/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { useReloadWhenAccepted } from '../../lib/useReloadWhenAccepted';

export const statsKey = ['admin', 'stats'] as const;
export const reportsKey = (filter: ReportStatusFilter) => ['admin', 'reports', filter] as const;

export function useAdminStats() {
  const { admin } = useApi();
  return useQuery({ queryKey: statsKey, queryFn: () => admin.getStats() });
}

/** Spec 001 §2: the first three reports of the chosen filter view. */
export function useDashboardReports(filter: ReportStatusFilter) {
  const { admin } = useApi();
  return useQuery({
    queryKey: reportsKey(filter),
    queryFn: async () => (await admin.getReports({ status: filter })).slice(0, DASHBOARD_REPORTS_SHOWN),
  });
}

export interface ResolveReportInput {
  reportId: string;
  status: ReportResolutionStatus;
  resolution?: string;
}

/** Mark Reviewed / Dismiss with an optional note; afterwards the dashboard reloads (spec 001 §4). */
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
