import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';

export const MATCH_STATS_QUERY_KEY = ['matches', 'stats'] as const;

/** GET /api/matches/stats: the dashboard's Matches and Likes. */
export function useMatchStats() {
  const api = useApi();
  return useQuery({ queryKey: MATCH_STATS_QUERY_KEY, queryFn: () => api.matching.getMatchStats() });
}
