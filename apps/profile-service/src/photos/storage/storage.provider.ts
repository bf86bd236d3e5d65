import path from 'node:path';
import type { Provider } from '@nestjs/common';
import { ProfileEnv } from '../../profile.env';
import { LocalPhotoStorage } from './local-photo-storage';
import { PHOTO_STORAGE, type PhotoStorage } from './photo-storage';

/**
 * The storage adapter the settings choose (PHOTO_STORAGE=local|s3). The AWS SDK is loaded only
 * when S3 is chosen.
 */
export async function createPhotoStorage(env: ProfileEnv): Promise<PhotoStorage> {
  if (env.PHOTO_STORAGE === 's3') {
    const { S3PhotoStorage } = await import('./s3-photo-storage');
    return new S3PhotoStorage({
      bucket: env.S3_BUCKET ?? '',
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    });
  }
  return new LocalPhotoStorage(path.resolve(process.cwd(), env.PHOTO_DIR));
}

export const photoStorageProvider: Provider = {
  provide: PHOTO_STORAGE,
  inject: [ProfileEnv],
  useFactory: createPhotoStorage,
};
