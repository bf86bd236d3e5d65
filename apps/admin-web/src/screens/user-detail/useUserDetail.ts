import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { useReloadWhenAccepted } from '../../lib/useReloadWhenAccepted';

export const userKey = (userId: string) => ['admin', 'user', userId] as const;

export function useUserDetail(userId: string) {
  const { admin } = useApi();
  return useQuery({ queryKey: userKey(userId), queryFn: () => admin.getUser(userId), retry: false });
}

export type ModerationAction = { kind: 'suspend'; reason: string } | { kind: 'unsuspend' } | { kind: 'delete' };

export function useModerateUser(userId: string) {
  const { admin } = useApi();
  const queryClient = useQueryClient();
  const reloadWhenAccepted = useReloadWhenAccepted();
  return useMutation({
    mutationFn: (action: ModerationAction) => {
      if (action.kind === 'suspend') return admin.suspendUser(userId, action.reason);
      if (action.kind === 'unsuspend') return admin.unsuspendUser(userId);
      return admin.deleteUser(userId);
    },
    onSuccess: (result, action) => {
      if (action.kind !== 'delete') reloadWhenAccepted(result);
      if (action.kind === 'delete') queryClient.removeQueries({ queryKey: userKey(userId) });
      return queryClient.invalidateQueries({ queryKey: ['admin'] });
    },
  });
}
