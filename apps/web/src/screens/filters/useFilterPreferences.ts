import type { FilterPreferencesDto } from '@mate/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';

export const FILTER_PREFERENCES_QUERY_KEY = ['preferences', 'filters'] as const;

/** GET /api/profile/me/preferences. */
export function useFilterPreferences() {
  const api = useApi();
  return useQuery({ queryKey: FILTER_PREFERENCES_QUERY_KEY, queryFn: () => api.preferences.getFilters() });
}

/** PUT /api/profile/me/preferences with the whole object (spec 001 §7). */
export function useSaveFilterPreferences() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (filters: FilterPreferencesDto) => api.preferences.updateFilters(filters),
    onSuccess: (saved) => queryClient.setQueryData(FILTER_PREFERENCES_QUERY_KEY, saved),
  });
}
