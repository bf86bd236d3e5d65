import type { ConversationSummaryDto } from '@mate/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { usePhotoUrl } from '../../profile/usePhotos';
import { CONVERSATIONS_QUERY_KEY } from '../../chat/useConversations';

/**
 * The other member's picture for the call screens, when the conversation list already has it
 * (a call is always with a match). Nothing is fetched: without it the avatar shows an initial.
 */
export function usePeerPicture(userId: string | null): string | undefined {
  const queryClient = useQueryClient();
  const photoUrl = usePhotoUrl();
  if (!userId) return undefined;
  const summary = queryClient
    .getQueryData<ConversationSummaryDto[]>(CONVERSATIONS_QUERY_KEY)
    ?.find((conversation) => conversation.userId === userId);
  return photoUrl(summary?.profilePicture);
}
