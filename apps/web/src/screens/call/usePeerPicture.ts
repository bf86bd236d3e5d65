import type { ConversationSummaryDto } from '@mate/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { usePhotoSrcSet, usePhotoUrl } from '../../profile/usePhotos';
import { CONVERSATIONS_QUERY_KEY } from '../../chat/useConversations';

/** An avatar's picture: the small file, and the other sizes for a dense screen. */
export interface PeerPicture {
  src?: string;
  srcSet?: string;
}

/**
 * The other member's picture for the call screens' big (xl) avatar, when the conversation list
 * already has it (a call is always with a match). Nothing is fetched: without it the avatar shows
 * an initial.
 */
export function usePeerPicture(userId: string | null): PeerPicture {
  const queryClient = useQueryClient();
  const photoUrl = usePhotoUrl();
  const photoSrcSet = usePhotoSrcSet();
  if (!userId) return {};
  const picture = queryClient
    .getQueryData<ConversationSummaryDto[]>(CONVERSATIONS_QUERY_KEY)
    ?.find((conversation) => conversation.userId === userId)?.profilePicture;
  return { src: photoUrl(picture, 'thumb'), srcSet: photoSrcSet(picture) };
}
