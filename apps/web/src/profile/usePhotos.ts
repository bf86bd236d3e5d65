import type { PhotoOrder } from '@mate/api-client';
import type { PhotoDto, PhotoSize } from '@mate/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useApi } from '../api/ApiContext';
import { useAuth } from '../auth/AuthContext';
import { readLegacyToken } from '@mate/ui';
import { PROFILE_COMPLETION_QUERY_KEY } from './useProfileCompletion';

export const PHOTOS_QUERY_KEY = ['photos'] as const;

/**
 * GET /api/photos, in display order. Until it answers, the photos of the profile already in memory
 * stand in (the same list, read at sign-in): the grid shows at once, in its final size, and the
 * answer replaces it.
 */
export function usePhotos() {
  const api = useApi();
  const { profile } = useAuth();
  return useQuery({ queryKey: PHOTOS_QUERY_KEY, queryFn: () => api.photos.list(), placeholderData: profile?.photos });
}

/**
 * Where an `<img>` loads a photo from (the API's origin, not the page's), at the size its box
 * needs: `thumb` (200 px) for avatars up to 56 px and list rows, `medium` (600 px) for tiles,
 * `large` (1200 px) only for a photo shown big. A box whose size varies adds `usePhotoSrcSet`.
 */
export function usePhotoUrl(): (url: string | null | undefined, size: PhotoSize) => string | undefined {
  const api = useApi();
  return useCallback((url, size) => api.photos.fileUrl(url, size), [api]);
}

/**
 * `srcSet` with every size of a photo (`w` = its longest side), for boxes that vary with the
 * screen; the `sizes` beside it names the longest side the photo is drawn at. Undefined for a
 * URL that is not one of the API's photo files.
 */
export function usePhotoSrcSet(): (url: string | null | undefined) => string | undefined {
  const api = useApi();
  return useCallback((url) => api.photos.srcSet(url), [api]);
}

/**
 * After a photo change: the cached list, the profile in memory (its photos and picture, which the
 * navigation shows) and the completion all follow; then the list is read again from the server.
 */
function usePhotoSync() {
  const queryClient = useQueryClient();
  const { updateProfile } = useAuth();
  const current = useCallback(
    (fallback: PhotoDto[]) => queryClient.getQueryData<PhotoDto[]>(PHOTOS_QUERY_KEY) ?? fallback,
    [queryClient],
  );
  const apply = useCallback(
    (photos: PhotoDto[], { refetch = true }: { refetch?: boolean } = {}) => {
      queryClient.setQueryData<PhotoDto[]>(PHOTOS_QUERY_KEY, photos);
      const primary = photos.find((photo) => photo.isPrimary) ?? photos[0];
      updateProfile({ photos, profilePicture: primary?.url ?? null });
      void queryClient.invalidateQueries({ queryKey: PROFILE_COMPLETION_QUERY_KEY });
      if (refetch) void queryClient.invalidateQueries({ queryKey: PHOTOS_QUERY_KEY });
    },
    [queryClient, updateProfile],
  );
  return { current, apply };
}

export interface UploadPhotoVariables {
  file: File;
}

/**
 * POST /api/photos/upload with the token of the `token` storage key (spec 000 §7). `onboarding`
 * adds `?context=onboarding`; `fallbackMessage` is what shows when the server gives no reason.
 */
export function useUploadPhoto({ context, fallbackMessage }: { context?: 'onboarding'; fallbackMessage?: string } = {}) {
  const api = useApi();
  const { profile } = useAuth();
  const sync = usePhotoSync();
  return useMutation({
    mutationFn: ({ file }: UploadPhotoVariables) =>
      api.photos.upload(file, { token: readLegacyToken(), context, fallbackMessage }),
    onSuccess: ({ photo }) => {
      const before = sync.current(profile?.photos ?? []).filter((existing) => existing.id !== photo.id);
      const next = photo.isPrimary ? before.map((existing) => ({ ...existing, isPrimary: false })) : before;
      sync.apply([...next, photo]);
    },
  });
}

export function useDeletePhoto() {
  const api = useApi();
  const { profile } = useAuth();
  const sync = usePhotoSync();
  return useMutation({
    mutationFn: (id: string) => api.photos.delete(id),
    onSuccess: (_result, id) => {
      sync.apply(sync.current(profile?.photos ?? []).filter((photo) => photo.id !== id));
    },
  });
}

export function useSetPrimaryPhoto() {
  const api = useApi();
  const { profile } = useAuth();
  const sync = usePhotoSync();
  return useMutation({
    mutationFn: (id: string) => api.photos.setPrimary(id),
    onSuccess: (_result, id) => {
      sync.apply(sync.current(profile?.photos ?? []).map((photo) => ({ ...photo, isPrimary: photo.id === id })));
    },
  });
}

/**
 * PUT /api/photos/reorder with the new order applied at once (the grid does not jump back while
 * the call runs). A failure reloads the list from the server (spec 000 §4).
 */
export function useReorderPhotos() {
  const api = useApi();
  const queryClient = useQueryClient();
  const sync = usePhotoSync();
  return useMutation({
    mutationFn: (photos: PhotoDto[]) =>
      api.photos.reorder(photos.map((photo, index): PhotoOrder => ({ id: photo.id, order: index }))),
    onMutate: (photos) => {
      void queryClient.cancelQueries({ queryKey: PHOTOS_QUERY_KEY });
      queryClient.setQueryData<PhotoDto[]>(
        PHOTOS_QUERY_KEY,
        photos.map((photo, index) => ({ ...photo, order: index })),
      );
    },
    onSuccess: (_result, photos) => {
      sync.apply(
        photos.map((photo, index) => ({ ...photo, order: index })),
        { refetch: false },
      );
    },
    onError: () => queryClient.invalidateQueries({ queryKey: PHOTOS_QUERY_KEY }),
  });
}
