import type { LikesReceivedDto } from '@mate/contracts';
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useApi } from '../../api/ApiContext';
import { CONVERSATIONS_QUERY_KEY } from '../../chat/useConversations';
import { useMatchPopup } from '../../realtime/MatchPopup';
import { useRealtime } from '../../realtime/RealtimeContext';
import { MATCH_STATS_QUERY_KEY } from './useMatchStats';

export const MY_MATCHES_QUERY_KEY = ['matches', 'mine'] as const;
export const LIKES_RECEIVED_QUERY_KEY = ['matches', 'likes-received'] as const;

/** How many likers the home shows at first, and loads per "Show more". */
export const HOME_LIKERS_PAGE = 12;

/** GET /api/matches/my-matches: the home's new matches, newest first. */
export function useMyMatches() {
  const api = useApi();
  return useQuery({ queryKey: MY_MATCHES_QUERY_KEY, queryFn: () => api.matching.getMyMatches() });
}

/** GET /api/matches/likes-received, page after page: who liked the member and is not answered yet. */
export function useLikesReceived() {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: LIKES_RECEIVED_QUERY_KEY,
    queryFn: ({ pageParam }) => api.matching.likesReceived({ limit: HOME_LIKERS_PAGE, offset: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.likers.length, 0);
      return last.likers.length > 0 && loaded < last.total ? loaded : undefined;
    },
  });
}

/**
 * Whatever a match changes on the home: the matches, who liked you, the stats (the conversation
 * list follows by itself through the chat sync context).
 */
function useRefreshAfterMatch() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    for (const queryKey of [MY_MATCHES_QUERY_KEY, LIKES_RECEIVED_QUERY_KEY, MATCH_STATS_QUERY_KEY])
      void queryClient.invalidateQueries({ queryKey });
  }, [queryClient]);
}

/**
 * Keeps the home live while it is shown: a `new_match` (the other side liked back, or a like back
 * from here) and a reconnect (what the channel missed) read the matches, likers and stats again.
 */
export function useLiveHome(): void {
  const { client } = useRealtime();
  const refresh = useRefreshAfterMatch();
  useEffect(() => {
    if (!client) return;
    const { socket } = client;
    socket.on('new_match', refresh);
    socket.on('connect', refresh);
    return () => {
      socket.off('new_match', refresh);
      socket.off('connect', refresh);
    };
  }, [client, refresh]);
}

/** The liker taken off every loaded page at once (the answer is given), before the list is read again. */
function withoutLiker(data: InfiniteData<LikesReceivedDto> | undefined, userId: string) {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => {
      const likers = page.likers.filter((liker) => liker.user.id !== userId);
      return { total: Math.max(0, page.total - (page.likers.length - likers.length)), likers };
    }),
  };
}

/**
 * Answering a liker from the home with Discover's own routes: a like back (which makes the match,
 * shown as 'It's a Match!') or a pass. Either takes them off the list.
 */
export function useAnswerLiker() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { showMatch } = useMatchPopup();
  const refresh = useRefreshAfterMatch();
  return useMutation({
    mutationFn: async ({
      liker,
      answer,
    }: {
      liker: LikesReceivedDto['likers'][number];
      answer: 'like' | 'pass';
    }) => {
      if (answer === 'pass') {
        await api.matching.pass(liker.user.id);
        return { matched: false };
      }
      return api.matching.like(liker.user.id);
    },
    onSuccess: (result, { liker }) => {
      queryClient.setQueryData<InfiniteData<LikesReceivedDto>>(LIKES_RECEIVED_QUERY_KEY, (data) =>
        withoutLiker(data, liker.user.id),
      );
      if (result.matched) {
        const { id, name, profilePicture } = liker.user;
        showMatch({ id, name, profilePicture });
        void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_QUERY_KEY });
      }
      refresh();
    },
  });
}
