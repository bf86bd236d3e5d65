import { PHOTO_QUEUE_REFRESH_MS } from '@mate/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { useReloadWhenAccepted } from '../../lib/useReloadWhenAccepted';

export const photoQueueKey = ['admin', 'photos', 'pending'] as const;

/** The pending photos with their stats, reloaded every 30 s (spec 001 §2, §9). */
export function usePhotoQueue() {
  const { admin } = useApi();
  return useQuery({
    queryKey: photoQueueKey,
    queryFn: () => admin.getPendingPhotos(),
    refetchInterval: PHOTO_QUEUE_REFRESH_MS,
  });
}

export type PhotoDecision = { photoId: string; kind: 'approve' } | { photoId: string; kind: 'reject'; reason: string };

/** Approve or reject; the queue reloads afterwards (spec 001 §4). */
export function usePhotoDecision() {
  const { admin } = useApi();
  const queryClient = useQueryClient();
  const reloadWhenAccepted = useReloadWhenAccepted();
  return useMutation({
    onSuccess: reloadWhenAccepted,
    mutationFn: (decision: PhotoDecision) =>
      decision.kind === 'approve' ? admin.approvePhoto(decision.photoId) : admin.rejectPhoto(decision.photoId, decision.reason),
    onSettled: () => queryClient.invalidateQueries({ queryKey: photoQueueKey }),
  });
}
