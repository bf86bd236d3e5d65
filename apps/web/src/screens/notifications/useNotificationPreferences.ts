import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationPreferenceKey,
  type NotificationPreferencesDto,
} from '@mate/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';

export const NOTIFICATION_PREFERENCES_QUERY_KEY = ['notifications', 'preferences'] as const;

/** GET /api/notifications/preferences; spec 001 §8: a failed fetch falls back to all true. */
export function useNotificationPreferences() {
  const api = useApi();
  return useQuery({
    queryKey: NOTIFICATION_PREFERENCES_QUERY_KEY,
    queryFn: async (): Promise<NotificationPreferencesDto> => {
      try {
        return await api.notifications.getPreferences();
      } catch {
        return { ...DEFAULT_NOTIFICATION_PREFERENCES };
      }
    },
  });
}

interface PreferenceChange {
  key: NotificationPreferenceKey;
  value: boolean;
}

/**
 * PATCH only the changed key (spec 001 §7), applied at once and put back if the update fails
 * (spec 001 §4). Only that key goes back, so a quick second toggle of another one stays.
 * `onFailure` hears every failed update, also one overtaken by a later toggle.
 */
export function useUpdateNotificationPreference(onFailure: (error: Error) => void) {
  const api = useApi();
  const queryClient = useQueryClient();
  const setKey = ({ key, value }: PreferenceChange) =>
    queryClient.setQueryData<NotificationPreferencesDto>(NOTIFICATION_PREFERENCES_QUERY_KEY, (current) =>
      current ? { ...current, [key]: value } : current,
    );
  return useMutation({
    mutationFn: ({ key, value }: PreferenceChange) => api.notifications.updatePreferences({ [key]: value }),
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: NOTIFICATION_PREFERENCES_QUERY_KEY });
      const previous = queryClient.getQueryData<NotificationPreferencesDto>(NOTIFICATION_PREFERENCES_QUERY_KEY)?.[change.key];
      setKey(change);
      return { previous: previous ?? !change.value };
    },
    onError: (error, change, context) => {
      setKey({ key: change.key, value: context?.previous ?? !change.value });
      onFailure(error);
    },
  });
}
