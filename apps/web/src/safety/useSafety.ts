import type { BlockedUserDto, ConversationSummaryDto, ReportReason } from '@mate/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApi } from '../api/ApiContext';
import { CONVERSATIONS_QUERY_KEY } from '../chat/useConversations';

export const BLOCKED_USERS_QUERY_KEY = ['safety', 'blocked'] as const;

/** GET /api/safety/blocked (spec 000 §3), newest first. */
export function useBlockedUsers() {
  const api = useApi();
  return useQuery({ queryKey: BLOCKED_USERS_QUERY_KEY, queryFn: () => api.safety.getBlockedUsers() });
}

/** DELETE /api/safety/block/{userId}: on success the entry leaves the list (spec 000 §4). */
export function useUnblock() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.safety.unblock(userId),
    onSuccess: (_result, userId) => {
      queryClient.setQueryData<BlockedUserDto[]>(BLOCKED_USERS_QUERY_KEY, (list) =>
        list?.filter((entry) => entry.blockedId !== userId),
      );
    },
  });
}

export function useBlock() {
  const api = useApi();
  return useMutation({
    mutationFn: ({ userId, reason }: { userId: string; reason?: string }) => api.safety.block(userId, reason),
  });
}

export function useUnmatch() {
  const api = useApi();
  return useMutation({ mutationFn: (userId: string) => api.safety.unmatch(userId) });
}

export function useReport() {
  const api = useApi();
  return useMutation({
    mutationFn: ({ userId, reason, details }: { userId: string; reason: ReportReason; details?: string }) =>
      api.safety.report(userId, reason, details),
  });
}

/** Where a member lands once a block or an unmatch has ended a conversation. */
export const AFTER_SAFETY_ROUTE = '/matches';

/**
 * Spec 000 §4: after a block or an unmatch the page "reloads". In the app that means: the member
 * is gone from the cached conversation list at once, every cached read is fetched again (matches,
 * conversations, the blocked list), and a member on that conversation lands on Messages, where it
 * no longer shows (a reload of /chat/{id} would only say the conversation is not found).
 */
export function useReloadAfterSafetyAction() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    (userId: string, { leave = true }: { leave?: boolean } = {}) => {
      queryClient.setQueryData<ConversationSummaryDto[]>(CONVERSATIONS_QUERY_KEY, (list) =>
        list?.filter((conversation) => conversation.userId !== userId),
      );
      void queryClient.invalidateQueries();
      if (leave) void navigate(AFTER_SAFETY_ROUTE, { replace: true });
    },
    [queryClient, navigate],
  );
}
