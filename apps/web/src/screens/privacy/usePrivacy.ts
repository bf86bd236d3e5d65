import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { useAuth } from '../../auth/AuthContext';
import { downloadJson, exportFileName } from '../../lib/download';

/** POST /api/gdpr/export, then the browser saves it as mate-data-export-{date}.json (spec 001 §7). */
export function useExportData() {
  const api = useApi();
  return useMutation({
    mutationFn: () => api.gdpr.exportData(),
    onSuccess: (data) => downloadJson(data, exportFileName()),
  });
}

/**
 * POST /api/gdpr/delete-account with the typed email as confirmation (spec 001 §5); on success
 * the token (both keys) and the user are removed and the member goes to /login (spec 001 §4).
 * The deletion ends every session, so the realtime channel may sign the member out before the
 * answer arrives, or between the answer and its render. Whichever sign-out comes first, the
 * signed-out guard sends the member to /login: the destination is chosen before the call.
 */
export function useDeleteAccount() {
  const api = useApi();
  const { clearSession, leaveTo } = useAuth();
  return useMutation({
    mutationFn: (confirmEmail: string) => api.gdpr.deleteAccount(confirmEmail),
    onMutate: () => leaveTo('/login'),
    onError: () => leaveTo(null),
    onSuccess: () => clearSession(),
  });
}
