import type { PreferencesDto } from '@mate/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';

export const PREFERENCES_QUERY_KEY = ['preferences', 'me'] as const;

/** GET /api/preferences/me. */
export function useMatchPreferences() {
  const api = useApi();
  return useQuery({ queryKey: PREFERENCES_QUERY_KEY, queryFn: () => api.preferences.getMine() });
}

/** PUT /api/preferences/me. */
export function useSaveMatchPreferences() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (preferences: PreferencesDto) => api.preferences.updateMine(preferences),
    onSuccess: (saved) => queryClient.setQueryData(PREFERENCES_QUERY_KEY, saved),
  });
}
