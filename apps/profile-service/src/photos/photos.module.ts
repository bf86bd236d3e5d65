import { Module } from '@nestjs/common';
import { ProfilesModule } from '../profiles/profiles.module';
import { ImageProcessor } from './image-processor';
import { PhotoFilesController, PhotosController, ProfilePhotosController } from './photos.controller';
import { PhotoProcessingQueue } from './photo-processing-queue';
import { PhotosRepository } from './photos.repository';
import { PhotosService } from './photos.service';
import { photoStorageProvider } from './storage/storage.provider';
import { PHOTO_STORAGE } from './storage/photo-storage';
import { PHOTO_UPLOAD_LIMITER, photoUploadLimiterProvider } from './upload-rate-limits';

/**
 * Photos: upload (rate-limited, sniff, strip, resize on a bounded queue), storage, order, primary,
 * deletion and serving.
 */
@Module({
  imports: [ProfilesModule],
  controllers: [PhotoFilesController, PhotosController, ProfilePhotosController],
  providers: [
    PhotosRepository,
    PhotosService,
    ImageProcessor,
    PhotoProcessingQueue,
    photoStorageProvider,
    photoUploadLimiterProvider,
  ],
  // The member erasure deletes their files and their upload counters; photo review changes rows.
  exports: [PHOTO_STORAGE, PHOTO_UPLOAD_LIMITER, PhotosRepository],
})
export class PhotosModule {}
