import type { AuditLogQuery } from '@mate/api-client';
import { AUDIT_PAGE_SIZE, AUDIT_REFRESH_MS } from '@mate/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useApi } from '../../api/ApiContext';

export interface AuditFilters {
  search: string;
  action: string;
  startDate: string;
  endDate: string;
}

export const NO_AUDIT_FILTERS: AuditFilters = { search: '', action: '', startDate: '', endDate: '' };

/** One page (50) of the audit log for the applied filters, reloaded every 30 s (spec 001 §2, §9). */
export function useAuditLogs(filters: AuditFilters, page: number) {
  const { admin } = useApi();
  const query: AuditLogQuery = {
    action: filters.action as AuditLogQuery['action'],
    search: filters.search,
    startDate: filters.startDate,
    endDate: filters.endDate,
    limit: AUDIT_PAGE_SIZE,
    offset: page * AUDIT_PAGE_SIZE,
  };
  const result = useQuery({
    queryKey: ['admin', 'audit', query],
    queryFn: () => admin.getAuditLogs(query),
    refetchInterval: AUDIT_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  // Spec 001 §8: audit fetch failures are only logged.
  useEffect(() => {
    if (result.error) console.error('Failed to load audit logs', result.error);
  }, [result.error]);
  return result;
}
