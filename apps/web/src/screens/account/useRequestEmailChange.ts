import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { readLegacyToken } from '@mate/ui';

/** Spec 001 §7: the email change is sent with the token from the second storage key, `token`. */
export function useRequestEmailChange() {
  const api = useApi();
  return useMutation({
    mutationFn: (newEmail: string) => api.auth.requestEmailChange({ newEmail }, readLegacyToken()),
  });
}
