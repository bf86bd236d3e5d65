import type { Readable } from 'node:stream';

/**
 * Where photo files live: a port with a local-disk adapter (default) and an S3-compatible one.
 * Keys are made by the service (`photos/<userId>/<photoId>/<size>.webp`; photos uploaded before
 * issue 12 keep `photos/<photoId>/<size>.webp`), never taken from a request.
 */
export interface PhotoStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The file's bytes as a stream, or null when there is no such file. */
  get(key: string): Promise<Readable | null>;
  /** Deleting a file that is not there is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Deletes every file whose key starts with `folder/` (a member's folder when they are erased).
   * A folder that is not there is not an error. Answers how many files went.
   */
  deleteFolder(folder: string): Promise<number>;
}

export const PHOTO_STORAGE = Symbol('PHOTO_STORAGE');

/**
 * How long a photo file may be kept by browsers and shared caches (ADR 0003): five minutes, then
 * it must be asked again (a cheap 304 while the photo is visible). A deleted or rejected photo
 * answers 404 at once from the service and is gone from every cache within five minutes.
 */
export const PHOTO_FILE_CACHE_CONTROL = 'public, max-age=300, must-revalidate';
