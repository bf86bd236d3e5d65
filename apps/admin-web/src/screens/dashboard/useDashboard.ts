import { DASHBOARD_REPORTS_SHOWN, type ReportStatusFilter } from '@mate/contracts';
import type { AdminReportsPage } from '@mate/api-client';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { useReportsPage } from '../../components/reports/useReports';

export const statsKey = ['admin', 'stats'] as const;

export function useAdminStats() {
  const { admin } = useApi();
  return useQuery({ queryKey: statsKey, queryFn: () => admin.getStats() });
}

const firstReports = (page: AdminReportsPage) => ({ reports: page.reports.slice(0, DASHBOARD_REPORTS_SHOWN), total: page.total });

/**
 * Spec 001 §2: the first three reports of the chosen filter view, and how many the view holds
 * (for the link to the reports screen), from the reports screen's first page.
 */
export function useDashboardReports(filter: ReportStatusFilter) {
  return useReportsPage(filter, 1, firstReports);
}
