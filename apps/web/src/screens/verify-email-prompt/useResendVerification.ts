import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';

export function useResendVerification() {
  const api = useApi();
  return useMutation({ mutationFn: () => api.verification.resend() });
}
