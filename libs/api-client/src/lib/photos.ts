import type { PhotoDto, PhotoUploadResponse } from '@mate/contracts';
import { ApiError } from './errors';
import type { HttpClient } from './http';
import { ClientMessages } from './messages';
import { normalizePhoto, type PhotoOrder } from './profile';

export interface UploadPhotoOptions {
  /**
   * Spec 000 §7: the upload is sent with the token of the second storage key (`token`), so the
   * caller passes it. A missing token fails with 'Not authenticated' without a request.
   */
  token: string | null | undefined;
  /** `onboarding` for the wizard's photo step (`?context=onboarding`: the 10 MB limit applies). */
  context?: 'onboarding';
  /** Shown when the server gives no `error`; 'Failed to upload photo' unless the screen has its own. */
  fallbackMessage?: string;
}

export interface PhotosApi {
  /** GET /api/photos, in display order. */
  list(): Promise<PhotoDto[]>;
  /** POST /api/photos/upload, multipart field `photo` → 201 `{ url, photo }`. */
  upload(file: Blob, options: UploadPhotoOptions): Promise<PhotoUploadResponse>;
  /** DELETE /api/photos/{id}. */
  delete(id: string): Promise<void>;
  /** PUT /api/photos/{id}/primary. */
  setPrimary(id: string): Promise<void>;
  /** PUT /api/photos/reorder `{ photoOrders: [{ id, order }] }`. */
  reorder(photoOrders: PhotoOrder[]): Promise<void>;
  /**
   * Where an `<img>` finds a photo: the server answers relative paths (`/api/photos/files/…`),
   * which live on the API's origin, not the page's. Absolute, data and blob URLs pass unchanged.
   */
  fileUrl(url: string | null | undefined): string | undefined;
}

const ABSOLUTE = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

type Raw = Record<string, unknown>;

function isRecord(value: unknown): value is Raw {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function byOrder(photos: PhotoDto[]): PhotoDto[] {
  return [...photos].sort((a, b) => a.order - b.order);
}

const photoPath = (id: string) => `/api/photos/${encodeURIComponent(id)}`;

export function createPhotosApi(http: HttpClient): PhotosApi {
  return {
    async list() {
      const body = await http.get<unknown>('/api/photos', {
        cache: 'no-store',
        fallbackMessage: ClientMessages.fetchPhotosFailed,
      });
      const items = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body['photos']) ? body['photos'] : [];
      return byOrder((items as unknown[]).filter(isRecord).map((raw, index) => normalizePhoto(raw, index)));
    },
    async upload(file, { token, context, fallbackMessage }) {
      if (!token) throw new ApiError(ClientMessages.notAuthenticated, 0);
      const form = new FormData();
      if (typeof File !== 'undefined' && file instanceof File) form.append('photo', file);
      else form.append('photo', file, 'photo');
      const body = await http.post<unknown>('/api/photos/upload', {
        body: form,
        query: { context },
        auth: { token },
        fallbackMessage: fallbackMessage ?? ClientMessages.uploadPhotoFailed,
      });
      const record = isRecord(body) ? body : {};
      const photo = normalizePhoto(isRecord(record['photo']) ? record['photo'] : record);
      const url = typeof record['url'] === 'string' ? record['url'] : photo.url;
      return { url, photo: { ...photo, url: photo.url || url } };
    },
    async delete(id) {
      await http.delete<unknown>(photoPath(id), { fallbackMessage: ClientMessages.deletePhotoFailed });
    },
    async setPrimary(id) {
      await http.put<unknown>(`${photoPath(id)}/primary`, { fallbackMessage: ClientMessages.setPrimaryPhotoFailed });
    },
    async reorder(photoOrders) {
      await http.put<unknown>('/api/photos/reorder', {
        body: { photoOrders },
        fallbackMessage: ClientMessages.reorderPhotosFailed,
      });
    },
    fileUrl(url) {
      if (!url) return undefined;
      if (ABSOLUTE.test(url)) return url;
      return `${http.base}${url.startsWith('/') ? '' : '/'}${url}`;
    },
  };
}
