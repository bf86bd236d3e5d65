import type { SocketClient } from '@mate/api-client';
import type { ChatMessageDto, ConversationSummaryDto } from '@mate/contracts';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { SHARED_LIST_STALE_MS, useApi } from '../api/ApiContext';

export const CONVERSATIONS_QUERY_KEY = ['chat', 'conversations'] as const;

/** GET /api/chat/conversations: one summary per match, newest activity first (spec 000 §3). */
export function useConversations() {
  const api = useApi();
  return useQuery({
    queryKey: CONVERSATIONS_QUERY_KEY,
    queryFn: () => api.chat.getConversations(),
    staleTime: SHARED_LIST_STALE_MS,
  });
}

/** Conversations in which at least one message was written (the dashboard's Messages). */
export function conversationsWithMessages(conversations: ConversationSummaryDto[]): number {
  return conversations.filter((conversation) => conversation.lastSeq > 0 || conversation.lastMessage !== null)
    .length;
}

/**
 * A message of a conversation already listed, applied to the cached list at once: the row takes
 * the message, moves to the top and, for a message from the other member, counts one more unread.
 * A message the list already reflects (its sequence not above the row's) changes nothing.
 */
export function applyMessage(
  conversations: ConversationSummaryDto[] | undefined,
  message: ChatMessageDto,
  selfId: string,
): ConversationSummaryDto[] | undefined {
  if (!conversations) return conversations;
  const otherId = message.senderId === selfId ? message.recipientId : message.senderId;
  const row = conversations.find((conversation) => conversation.userId === otherId);
  if (!row || message.seq <= row.lastSeq) return conversations;
  const updated: ConversationSummaryDto = {
    ...row,
    lastMessage: message.content,
    lastMessageTime: message.createdAt,
    lastMessageSenderId: message.senderId,
    lastSeq: message.seq,
    unreadCount: message.senderId === selfId ? row.unreadCount : row.unreadCount + 1,
  };
  return [updated, ...conversations.filter((conversation) => conversation !== row)];
}

function refresh(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_QUERY_KEY });
}

/**
 * Keeps the cached conversation list live (Messages and the dashboard): each message pushed on
 * the realtime channel updates its row at once, then the list is read again from chat-service,
 * which holds the truth (read state from another device, a new match, what a reconnect missed).
 */
export function useLiveConversations(client: SocketClient | null, selfId: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!client || !selfId) return;
    const onMessage = (message: ChatMessageDto) => {
      queryClient.setQueryData<ConversationSummaryDto[]>(CONVERSATIONS_QUERY_KEY, (current) =>
        applyMessage(current, message, selfId),
      );
      refresh(queryClient);
    };
    const onChange = () => refresh(queryClient);
    const { socket } = client;
    socket.on('new_message', onMessage);
    socket.on('message_sent', onMessage);
    socket.on('messages_read', onChange);
    socket.on('new_match', onChange);
    // What happened while the channel was down.
    socket.on('connect', onChange);
    return () => {
      socket.off('new_message', onMessage);
      socket.off('message_sent', onMessage);
      socket.off('messages_read', onChange);
      socket.off('new_match', onChange);
      socket.off('connect', onChange);
    };
  }, [client, selfId, queryClient]);
}
