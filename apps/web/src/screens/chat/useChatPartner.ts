import { ChatTexts, DELETED_MEMBER_NAME, type ConversationSummaryDto } from '@mate/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { CONVERSATIONS_QUERY_KEY } from '../../chat/useConversations';
import { memberName } from '../../lib/member-name';
import { memberProfileKey } from '../member/useMemberProfile';

export interface ChatPartner {
  /** The header's title: the name, 'Chat' while unknown, 'User' when it could not be fetched (spec 000 §2, §8). */
  title: string;
  /** The name for sentences ('Block Sam'), never a placeholder word. */
  name: string;
  /** Their picture, when known. */
  picture: string | null;
  /** They deleted their account: the conversation can be read, not written (issue 12). */
  readOnly: boolean;
}

/**
 * The other member of a chat: the name from the conversation list when it is already loaded
 * (arriving from Messages), else from GET /api/profile/{userId}.
 */
export function useChatPartner(userId: string): ChatPartner {
  const api = useApi();
  const queryClient = useQueryClient();
  const summary = queryClient
    .getQueryData<ConversationSummaryDto[]>(CONVERSATIONS_QUERY_KEY)
    ?.find((conversation) => conversation.userId === userId);
  const known = summary?.userName?.trim() || null;
  const profile = useQuery({
    queryKey: memberProfileKey(userId),
    queryFn: () => api.profile.getUserProfile(userId),
    enabled: known === null && summary?.readOnly !== true,
    retry: false,
  });
  const readOnly = summary?.readOnly === true;
  if (readOnly) return { title: DELETED_MEMBER_NAME, name: DELETED_MEMBER_NAME, picture: null, readOnly };
  if (known) return { title: known, name: known, picture: summary?.profilePicture ?? null, readOnly };
  if (profile.isSuccess) {
    const name = memberName(profile.data.name);
    return { title: name, name, picture: profile.data.profilePicture, readOnly };
  }
  if (profile.isError) return { title: ChatTexts.userFallback, name: ChatTexts.userFallback, picture: null, readOnly };
  return {
    title: ChatTexts.chatFallbackTitle,
    name: ChatTexts.userFallback,
    picture: summary?.profilePicture ?? null,
    readOnly,
  };
}
