import { useQuery } from '@tanstack/react-query';
import { SHARED_LIST_STALE_MS, useApi } from '../api/ApiContext';

export const PROFILE_COMPLETION_QUERY_KEY = ['profile', 'completion'] as const;

/** GET /api/profile/me/completion → the percentage shown on the profile and the dashboard. */
export function useProfileCompletion() {
  const api = useApi();
  return useQuery({
    queryKey: PROFILE_COMPLETION_QUERY_KEY,
    queryFn: () => api.profile.getCompletion(),
    select: (completion) => completion.percentage,
    staleTime: SHARED_LIST_STALE_MS,
  });
}
