import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { PHOTO_FILE_CACHE_CONTROL, type PhotoStorage } from './photo-storage';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** An S3-compatible service (MinIO, R2, …); AWS when absent. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (MinIO needs it). */
  forcePathStyle: boolean;
}

/** What the adapter needs of a client: `send`. Tests pass a fake (the network is an outside boundary). */
export type S3Sender = Pick<S3Client, 'send'>;

export function s3ClientConfig(options: S3StorageOptions): S3ClientConfig {
  return {
    region: options.region,
    endpoint: options.endpoint || undefined,
    forcePathStyle: options.forcePathStyle,
    // Without keys the SDK's default chain applies (instance role, web identity, …).
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
  };
}

function isMissing(e: unknown): boolean {
  if (e instanceof S3ServiceException) {
    return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
  }
  return (e as { name?: string })?.name === 'NoSuchKey';
}

/**
 * Photo files in an S3-compatible bucket (production). Files never change, but a deleted or
 * rejected photo must leave caches soon, so they are cached for minutes, not forever.
 */
export class S3PhotoStorage implements PhotoStorage {
  constructor(
    private readonly options: S3StorageOptions,
    private readonly client: S3Sender = new S3Client(s3ClientConfig(options)),
  ) {}

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ContentLength: body.length,
        // What a CDN serving the bucket directly would apply; the service sends the same.
        CacheControl: PHOTO_FILE_CACHE_CONTROL,
      }),
    );
  }

  async get(key: string): Promise<Readable | null> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return (res.Body as Readable | undefined) ?? null;
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  /** Lists the folder a page (at most 1000 keys) at a time and deletes each page in one request. */
  async deleteFolder(folder: string): Promise<number> {
    const prefix = `${folder.replace(/\/+$/, '')}/`;
    let deleted = 0;
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: prefix, ContinuationToken: continuationToken }),
      );
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      if (keys.length > 0) {
        const result = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.options.bucket, Delete: { Objects: keys, Quiet: true } }),
        );
        if (result.Errors?.length) {
          throw new Error(`S3 kept ${result.Errors.length} file(s) of a deleted folder: ${result.Errors[0].Code ?? 'error'}`);
        }
        deleted += keys.length;
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
    return deleted;
  }
}
