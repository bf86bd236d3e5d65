import { Module } from '@nestjs/common';
import { ProfilesModule } from '../profiles/profiles.module';
import { ImageProcessor } from './image-processor';
import { PhotoFilesController, PhotosController, ProfilePhotosController } from './photos.controller';
import { PhotosRepository } from './photos.repository';
import { PhotosService } from './photos.service';
import { photoStorageProvider } from './storage/storage.provider';
import { PHOTO_STORAGE } from './storage/photo-storage';

/** Photos: upload (sniff, strip, resize), storage, order, primary, deletion and serving. */
@Module({
  imports: [ProfilesModule],
  controllers: [PhotoFilesController, PhotosController, ProfilePhotosController],
  providers: [PhotosRepository, PhotosService, ImageProcessor, photoStorageProvider],
  exports: [PHOTO_STORAGE],
})
export class PhotosModule {}
