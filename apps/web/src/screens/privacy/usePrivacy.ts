import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { downloadJson, exportFileName } from '../../lib/download';

/** POST /api/gdpr/export, then the browser saves it as mate-data-export-{date}.json (spec 001 §7). */
export function useExportData() {
  const api = useApi();
  return useMutation({
    mutationFn: () => api.gdpr.exportData(),
    onSuccess: (data) => downloadJson(data, exportFileName()),
  });
}

/** POST /api/gdpr/delete-account with the typed email as confirmation (spec 001 §5). */
export function useDeleteAccount() {
  const api = useApi();
  return useMutation({ mutationFn: (confirmEmail: string) => api.gdpr.deleteAccount(confirmEmail) });
}
