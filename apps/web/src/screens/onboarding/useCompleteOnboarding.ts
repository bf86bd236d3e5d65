import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';

export function useCompleteOnboarding() {
  const api = useApi();
  return useMutation({ mutationFn: () => api.profile.completeOnboarding() });
}
