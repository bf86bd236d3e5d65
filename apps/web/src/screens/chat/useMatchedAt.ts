import type { ConversationSummaryDto } from '@mate/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { CONVERSATIONS_QUERY_KEY } from '../../chat/useConversations';

export const MY_MATCHES_QUERY_KEY = ['matches', 'mine'] as const;

/**
 * When the member matched with `userId` (GET /api/matches/my-matches), or from the conversation
 * list while that is still loading; null when neither knows.
 */
export function useMatchedAt(userId: string, enabled: boolean): string | null {
  const api = useApi();
  const queryClient = useQueryClient();
  const matches = useQuery({
    queryKey: MY_MATCHES_QUERY_KEY,
    queryFn: () => api.matching.getMyMatches(),
    enabled,
    retry: false,
  });
  const fromMatches = matches.data?.find((match) => match.userId === userId)?.matchedAt;
  const fromList = queryClient
    .getQueryData<ConversationSummaryDto[]>(CONVERSATIONS_QUERY_KEY)
    ?.find((conversation) => conversation.userId === userId)?.matchedAt;
  return fromMatches ?? fromList ?? null;
}
