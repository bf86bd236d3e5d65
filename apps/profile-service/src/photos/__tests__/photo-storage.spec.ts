import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { LocalPhotoStorage } from '../storage/local-photo-storage';
import {
  S3PhotoStorage,
  s3ClientConfig,
  type S3Sender,
  type S3StorageOptions,
} from '../storage/s3-photo-storage';
import { createPhotoStorage } from '../storage/storage.provider';
import { ProfileEnv } from '../../profile.env';

describe('LocalPhotoStorage (a real folder)', () => {
  let root: string;
  let storage: LocalPhotoStorage;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'mate-storage-'));
    storage = new LocalPhotoStorage(root);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('puts, gets and deletes files under its folder, and removes an emptied photo folder', async () => {
    await storage.put('photos/a/large.webp', Buffer.from('large'), 'image/webp');
    await storage.put('photos/a/thumb.webp', Buffer.from('thumb'), 'image/webp');
    const stream = await storage.get('photos/a/large.webp');
    expect(stream && (await text(stream))).toBe('large');
    expect(await readdir(path.join(root, 'photos', 'a'))).toEqual(['large.webp', 'thumb.webp']);

    await storage.delete('photos/a/large.webp');
    expect(await storage.get('photos/a/large.webp')).toBeNull();
    await storage.delete('photos/a/thumb.webp');
    expect(await readdir(path.join(root, 'photos'))).toEqual([]);
    await expect(storage.delete('photos/a/thumb.webp')).resolves.toBeUndefined();
  });

  it("deletes a member's folder with every file in it, and answers how many went", async () => {
    await storage.put('photos/m1/p1/large.webp', Buffer.from('a'), 'image/webp');
    await storage.put('photos/m1/p1/thumb.webp', Buffer.from('b'), 'image/webp');
    await storage.put('photos/m1/p2/large.webp', Buffer.from('c'), 'image/webp');
    await storage.put('photos/m2/p3/large.webp', Buffer.from('d'), 'image/webp');
    expect(await storage.deleteFolder('photos/m1')).toBe(3);
    expect(await readdir(path.join(root, 'photos'))).toEqual(['m2']);
    expect(await storage.deleteFolder('photos/m1')).toBe(0);
    await expect(storage.deleteFolder('../outside')).rejects.toThrow('Invalid storage key');
  });

  it("removes a member's folder with its last photo's last file", async () => {
    await storage.put('photos/m1/p1/large.webp', Buffer.from('a'), 'image/webp');
    await storage.delete('photos/m1/p1/large.webp');
    expect(await readdir(path.join(root, 'photos'))).toEqual([]);
  });

  it('answers null for a missing file and refuses keys that leave its folder', async () => {
    expect(await storage.get('photos/nothing/large.webp')).toBeNull();
    await expect(storage.put('../escape.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow(
      'Invalid storage key',
    );
    await expect(storage.get('../../etc/passwd')).rejects.toThrow('Invalid storage key');
  });
});

/**
 * The S3 adapter against a fake client: S3 is an outside boundary (a network service this machine
 * cannot reach), so these tests check the commands the adapter builds, not a bucket.
 */
describe('S3PhotoStorage (fake S3 client: the network is an outside boundary)', () => {
  const options: S3StorageOptions = {
    bucket: 'mate-photos',
    region: 'eu-west-1',
    endpoint: 'http://minio.internal:9000',
    accessKeyId: 'AKIAEXAMPLE',
    secretAccessKey: 'secret',
    forcePathStyle: true,
  };

  function fakeClient(answer: (command: unknown) => unknown = () => ({})) {
    const sent: unknown[] = [];
    const client: S3Sender = {
      send: jest.fn(async (command: unknown) => {
        sent.push(command);
        return answer(command);
      }) as unknown as S3Sender['send'],
    };
    return { client, sent };
  }

  it('puts a file with its type, length and an immutable cache header', async () => {
    const { client, sent } = fakeClient();
    const body = Buffer.from('webp bytes');
    await new S3PhotoStorage(options, client).put('photos/p1/large.webp', body, 'image/webp');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toBeInstanceOf(PutObjectCommand);
    expect((sent[0] as PutObjectCommand).input).toEqual({
      Bucket: 'mate-photos',
      Key: 'photos/p1/large.webp',
      Body: body,
      ContentType: 'image/webp',
      ContentLength: body.length,
      CacheControl: 'public, max-age=300, must-revalidate',
    });
  });

  it('gets the object body as a stream, and null when the key does not exist', async () => {
    const { client, sent } = fakeClient(() => ({ Body: Readable.from(['bytes']) }));
    const storage = new S3PhotoStorage(options, client);
    const stream = await storage.get('photos/p1/thumb.webp');
    expect(stream && (await text(stream))).toBe('bytes');
    expect(sent[0]).toBeInstanceOf(GetObjectCommand);
    expect((sent[0] as GetObjectCommand).input).toEqual({
      Bucket: 'mate-photos',
      Key: 'photos/p1/thumb.webp',
    });

    const missing = fakeClient(() => {
      throw new NoSuchKey({ message: 'no such key', $metadata: { httpStatusCode: 404 } });
    });
    expect(await new S3PhotoStorage(options, missing.client).get('photos/none/large.webp')).toBeNull();

    const broken = fakeClient(() => {
      throw new S3ServiceException({
        name: 'AccessDenied',
        $fault: 'client',
        message: 'denied',
        $metadata: { httpStatusCode: 403 },
      });
    });
    await expect(new S3PhotoStorage(options, broken.client).get('photos/p1/large.webp')).rejects.toThrow(
      'denied',
    );
  });

  it('deletes by key', async () => {
    const { client, sent } = fakeClient();
    await new S3PhotoStorage(options, client).delete('photos/p1/medium.webp');
    expect(sent[0]).toBeInstanceOf(DeleteObjectCommand);
    expect((sent[0] as DeleteObjectCommand).input).toEqual({
      Bucket: 'mate-photos',
      Key: 'photos/p1/medium.webp',
    });
  });

  it("deletes a member's folder page by page: list under the prefix, then one DeleteObjects per page", async () => {
    const pages = [
      { Contents: [{ Key: 'photos/m1/p1/large.webp' }, { Key: 'photos/m1/p1/thumb.webp' }], IsTruncated: true, NextContinuationToken: 't2' },
      { Contents: [{ Key: 'photos/m1/p2/large.webp' }], IsTruncated: false },
    ];
    const { client, sent } = fakeClient((command) => (command instanceof ListObjectsV2Command ? pages.shift() : {}));
    expect(await new S3PhotoStorage(options, client).deleteFolder('photos/m1')).toBe(3);
    expect(sent.map((c) => (c as { constructor: { name: string } }).constructor.name)).toEqual([
      'ListObjectsV2Command',
      'DeleteObjectsCommand',
      'ListObjectsV2Command',
      'DeleteObjectsCommand',
    ]);
    expect((sent[0] as ListObjectsV2Command).input).toEqual({ Bucket: 'mate-photos', Prefix: 'photos/m1/', ContinuationToken: undefined });
    expect((sent[2] as ListObjectsV2Command).input).toMatchObject({ Prefix: 'photos/m1/', ContinuationToken: 't2' });
    expect((sent[1] as DeleteObjectsCommand).input).toEqual({
      Bucket: 'mate-photos',
      Delete: { Objects: [{ Key: 'photos/m1/p1/large.webp' }, { Key: 'photos/m1/p1/thumb.webp' }], Quiet: true },
    });

    const empty = fakeClient(() => ({ IsTruncated: false }));
    expect(await new S3PhotoStorage(options, empty.client).deleteFolder('photos/none')).toBe(0);
    expect(empty.sent).toHaveLength(1);

    const refused = fakeClient((command) =>
      command instanceof ListObjectsV2Command
        ? { Contents: [{ Key: 'photos/m1/p1/large.webp' }], IsTruncated: false }
        : { Errors: [{ Key: 'photos/m1/p1/large.webp', Code: 'AccessDenied' }] },
    );
    await expect(new S3PhotoStorage(options, refused.client).deleteFolder('photos/m1')).rejects.toThrow('AccessDenied');
  });

  it('configures the client for an S3-compatible endpoint, or the default credential chain', () => {
    expect(s3ClientConfig(options)).toEqual({
      region: 'eu-west-1',
      endpoint: 'http://minio.internal:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret' },
    });
    expect(s3ClientConfig({ bucket: 'b', region: 'us-east-1', forcePathStyle: false, endpoint: '' })).toEqual(
      { region: 'us-east-1', endpoint: undefined, forcePathStyle: false, credentials: undefined },
    );
  });

  it('is chosen by PHOTO_STORAGE', async () => {
    const env = Object.assign(new ProfileEnv(), { DATABASE_URL: 'postgres://x' });
    const local = await createPhotoStorage(env);
    expect(local).toBeInstanceOf(LocalPhotoStorage);
    expect((local as LocalPhotoStorage).root).toBe(path.resolve(process.cwd(), '.data/uploads'));
    const s3 = Object.assign(new ProfileEnv(), {
      PHOTO_STORAGE: 's3',
      S3_BUCKET: 'b',
      S3_FORCE_PATH_STYLE: true,
    });
    expect(await createPhotoStorage(s3)).toBeInstanceOf(S3PhotoStorage);
  });
});
