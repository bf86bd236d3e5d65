import { CALL_HISTORY_PAGE_SIZE } from '@mate/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { statusOfFilter, type CallFilter } from './call-history';

export const CALLS_QUERY_KEY = ['calls'] as const;
export const CALL_STATS_QUERY_KEY = [...CALLS_QUERY_KEY, 'stats'] as const;
export const callHistoryQueryKey = (filter: CallFilter, page: number) =>
  [...CALLS_QUERY_KEY, 'history', filter, page] as const;

/**
 * GET /api/calls/history?limit=20&offset=page*20[&status] (spec 000 §7 and §9; issue 25): one page
 * of the member's calls of the chosen filter, newest first, and whether another page follows. The
 * previous page stays on screen while the next one loads.
 */
export function useCallHistoryPage(filter: CallFilter, page: number) {
  const api = useApi();
  return useQuery({
    queryKey: callHistoryQueryKey(filter, page),
    queryFn: () =>
      api.calls.getHistoryPage(CALL_HISTORY_PAGE_SIZE, page * CALL_HISTORY_PAGE_SIZE, statusOfFilter(filter)),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/calls/stats: the statistics card. */
export function useCallStats() {
  const api = useApi();
  return useQuery({ queryKey: CALL_STATS_QUERY_KEY, queryFn: () => api.calls.getStats() });
}
