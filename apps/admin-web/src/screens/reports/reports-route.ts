import { DEFAULT_REPORT_STATUS_FILTER, REPORT_STATUS_FILTERS, type ReportStatusFilter } from '@mate/contracts';

export const REPORTS_SCREEN_PATH = '/admin/reports';

/** `/admin/reports?status&page`: the filter view and page live in the address (back, reload, a shared link). */
export function reportsScreenPath(filter: ReportStatusFilter, page = 1): string {
  const search = new URLSearchParams({ status: filter });
  if (page > 1) search.set('page', String(page));
  return `${REPORTS_SCREEN_PATH}?${search.toString()}`;
}

/** The filter of the address; absent or unknown: Pending (spec 001 §9 default). */
export function filterOf(search: URLSearchParams): ReportStatusFilter {
  const status = search.get('status');
  return (REPORT_STATUS_FILTERS as readonly string[]).includes(status ?? '') ? (status as ReportStatusFilter) : DEFAULT_REPORT_STATUS_FILTER;
}

/** The page of the address, from 1; absent or not a whole number: 1. */
export function pageOf(search: URLSearchParams): number {
  const page = search.get('page') ?? '';
  return /^\d{1,6}$/.test(page) && Number(page) >= 1 ? Number(page) : 1;
}
