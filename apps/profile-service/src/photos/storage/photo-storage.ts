import type { Readable } from 'node:stream';

/**
 * Where photo files live: a port with a local-disk adapter (default) and an S3-compatible one.
 * Keys are made by the service (`photos/<photoId>/<size>.webp`), never taken from a request.
 */
export interface PhotoStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The file's bytes as a stream, or null when there is no such file. */
  get(key: string): Promise<Readable | null>;
  /** Deleting a file that is not there is not an error. */
  delete(key: string): Promise<void>;
}

export const PHOTO_STORAGE = Symbol('PHOTO_STORAGE');
