import { PHOTO_SIZES, photoFileUrl, type PhotoDto, type PhotoSize, type PhotoUploadResponse } from '@mate/contracts';
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
   * which live on the API's origin, not the page's. With `size`, a photo file of this API is asked
   * for at that size (`…/large.webp` → `…/thumb.webp`); absolute URLs elsewhere, data and blob
   * URLs and any other shape pass unchanged.
   */
  fileUrl(url: string | null | undefined, size?: PhotoSize): string | undefined;
  /**
   * `srcset` for a photo file of this API: every stored size with its longest side as the `w`
   * descriptor (`<thumb> 200w, <medium> 600w, <large> 1200w`), so the `sizes` beside it names the
   * longest side the photo is drawn at. Undefined for any other URL (its `src` alone is used).
   */
  srcSet(url: string | null | undefined): string | undefined;
}

const ABSOLUTE = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

const SIZES_SMALLEST_FIRST = (Object.entries(PHOTO_SIZES) as [PhotoSize, number][]).sort((a, b) => a[1] - b[1]);
/**
 * A photo file exactly as profile-service names it (`photoFileUrl`): nothing before or after it,
 * no dots or escapes in the id, so `…/large.webp/../x` or `…/large.webp?x` are not photo files.
 */
const PHOTO_FILE = new RegExp(`^/api/photos/files/([A-Za-z0-9_-]+)/(?:${Object.keys(PHOTO_SIZES).join('|')})\\.webp$`);

/** The id of the photo when `path` is one of its files on this API, else null. */
function photoIdOfPath(path: string): string | null {
  return PHOTO_FILE.exec(path)?.[1] ?? null;
}

/**
 * The same photo at `size` when `path` is a photo file of this API (`/api/photos/files/<id>/<size>.webp`),
 * else `path` as it is. For callers that place the path on the API's origin themselves (admin).
 */
export function photoPathAtSize(path: string, size: PhotoSize): string {
  const id = photoIdOfPath(path);
  return id ? photoFileUrl(id, size) : path;
}

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
    fileUrl,
    srcSet(url) {
      if (!url || !photoIdOfPath(onApiOrigin(url))) return undefined;
      return SIZES_SMALLEST_FIRST.map(([size, px]) => `${fileUrl(url, size)} ${px}w`).join(', ');
    },
  };

  function fileUrl(url: string | null | undefined, size?: PhotoSize): string | undefined {
    if (!url) return undefined;
    const path = size ? photoPathAtSize(onApiOrigin(url), size) : url;
    if (ABSOLUTE.test(path)) return path;
    return `${http.base}${path.startsWith('/') ? '' : '/'}${path}`;
  }

  /** The path of a URL already placed on the API's origin; any other URL as it is. */
  function onApiOrigin(url: string): string {
    return http.base && url.startsWith(`${http.base}/`) ? url.slice(http.base.length) : url;
  }
}
