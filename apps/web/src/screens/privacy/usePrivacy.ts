import { useMutation } from '@tanstack/react-query';
import { startTransition } from 'react';
import { useNavigate } from 'react-router-dom';
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
 * Handled here rather than on the screen: the deletion ends every session, so the realtime channel
 * may sign the member out (and leave this screen for /) before the answer arrives; /login still
 * follows.
 */
export function useDeleteAccount() {
  const api = useApi();
  const { clearSession } = useAuth();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (confirmEmail: string) => api.gdpr.deleteAccount(confirmEmail),
    onSuccess: () => {
      // One transition: the signed-out guard never renders on its own and sends the member to /.
      startTransition(() => {
        clearSession();
        void navigate('/login', { replace: true });
      });
    },
  });
}
