import { Module } from '@nestjs/common';
import { ProfilesModule } from '../../profiles/profiles.module';
import { NsfwPhotoClassifier, PHOTO_CLASSIFIER } from '../classifier/photo-classifier';
import { PhotosModule } from '../photos.module';
import { AdminInternalController } from './admin-internal.controller';
import { PhotoReviewService } from './photo-review.service';
import { PhotoAdminWorker, PhotoScanWorker } from './photo-review.workers';

/**
 * Photo review (issue 13): the offline classifier's scan of each upload, an admin's approve and
 * reject, and the internal reads admin-service composes its views from.
 */
@Module({
  imports: [ProfilesModule, PhotosModule],
  controllers: [AdminInternalController],
  providers: [
    { provide: PHOTO_CLASSIFIER, useClass: NsfwPhotoClassifier },
    PhotoReviewService,
    PhotoScanWorker,
    PhotoAdminWorker,
  ],
  // The `scan-photos` command (main.ts).
  exports: [PhotoReviewService],
})
export class PhotoReviewModule {}
