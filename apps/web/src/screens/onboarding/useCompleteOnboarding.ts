import type { CompleteOnboardingRequest } from '@mate/contracts';
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';

/** POST /api/profile/me/complete-onboarding: without answers it is 'Skip for now'. */
export function useCompleteOnboarding() {
  const api = useApi();
  return useMutation({
    mutationFn: (answers?: CompleteOnboardingRequest) => api.profile.completeOnboarding(answers),
  });
}
