import type { MemberProfileDto } from '@mate/contracts';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';

/** The query key the chat header's partner name shares, so the profile is fetched once. */
export const memberProfileKey = (userId: string) => ['profile', 'user', userId] as const;

/** GET /api/profile/{userId}: another member's whole profile (404 across a block or for a stranger). */
export function useMemberProfile(userId: string, enabled = true) {
  const api = useApi();
  return useQuery<MemberProfileDto>({
    queryKey: memberProfileKey(userId),
    queryFn: () => api.profile.getUserProfile(userId),
    enabled,
    retry: false,
  });
}
