import type { SessionDto } from '@mate/contracts';
import { SESSIONS_REFRESH_INTERVAL } from '@mate/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';

export const SESSIONS_QUERY_KEY = ['sessions', 'my'] as const;

/** GET /api/sessions/my, refreshed every 30 s (spec 001 §2). */
export function useMySessions() {
  const api = useApi();
  return useQuery({
    queryKey: SESSIONS_QUERY_KEY,
    queryFn: () => api.sessions.mySessions(),
    refetchInterval: SESSIONS_REFRESH_INTERVAL,
  });
}

/** Removing one session takes it off the list (spec 001 §4). */
export function useDeleteSession() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.sessions.deleteSession(id),
    onSuccess: (_result, id) => {
      queryClient.setQueryData<SessionDto[]>(SESSIONS_QUERY_KEY, (sessions) =>
        sessions?.filter((session) => session.id !== id),
      );
    },
  });
}

/** Logging out all others reloads the list (spec 001 §4). */
export function useDeleteOtherSessions() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.sessions.deleteOtherSessions(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });
}
