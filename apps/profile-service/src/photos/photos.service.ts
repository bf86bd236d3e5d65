import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import {
  MAX_PHOTOS,
  PHOTO_SIZES,
  QueueName,
  photoFileUrl,
  ProfileErrorCode,
  ProfileMessages,
  type PhotoDto,
  type PhotoSize,
  type PhotoUploadResponse,
} from '@mate/contracts';
import { badRequest, LOGGER, notFound, OutboxService } from '@mate/server-kit';
import { ProfileEnv } from '../profile.env';
import { ProfilesRepository } from '../profiles/profiles.repository';
import { ProfilesService } from '../profiles/profiles.service';
import { toPhotoDto } from '../profiles/profile.mapper';
import type { Profile } from '../profiles/profile.entity';
import { ImageProcessor, ImageRejected, PHOTO_CONTENT_TYPE, type EncodedPhoto } from './image-processor';
import { PhotoProcessingQueue } from './photo-processing-queue';
import { photoTooLarge, UPLOAD_LIMITS, type UploadContext } from './photo-upload.interceptor';
import type { StoredSizes } from './photo.entity';
import { PhotosRepository } from './photos.repository';
import { PHOTO_STORAGE, type PhotoStorage } from './storage/photo-storage';
import type { PhotoOrderDto } from './dto/photo.dto';

/** A servable photo file: its entity tag, and its bytes on demand (a revalidation needs none). */
export interface PhotoFile {
  etag: string;
  open(): Promise<Readable | null>;
}

/** What multer hands over for the `photo` field. */
export interface UploadedPhotoFile {
  buffer: Buffer;
  size: number;
}

const PHOTO_ID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** `/api/photos/files/<id>/…`, optionally behind an origin (`https://mate.example`). */
const OWN_PHOTO_URL = new RegExp(
  `^(?:https?://[^/?#\\s]+)?/api/photos/files/(${PHOTO_ID})(?:/[^?#\\s]*)?(?:[?#]\\S*)?$`,
  'i',
);

/** The photo id in a URL of a photo served by Mate, else null. */
export function photoIdOfUrl(url: string): string | null {
  return OWN_PHOTO_URL.exec(url.trim())?.[1]?.toLowerCase() ?? null;
}

/**
 * A member's folder in photo storage: every photo uploaded since issue 12 lives in it, so erasing
 * the member (and the verify command) finds their files by the id alone.
 */
export const memberPhotoFolderOf = (userId: string) => `photos/${userId.toLowerCase()}`;
/** Where a new photo's files go. The row keeps it: photos uploaded before stay at `photos/<photoId>`. */
const storageKeyOf = (userId: string, photoId: string) => `${memberPhotoFolderOf(userId)}/${photoId}`;
export const fileKeyOf = (storageKey: string, size: PhotoSize) => `${storageKey}/${size}.webp`;
export const PHOTO_SIZE_NAMES = Object.keys(PHOTO_SIZES) as PhotoSize[];
const SIZE_NAMES = PHOTO_SIZE_NAMES;

/**
 * Photo rules: at most 6 visible photos per member, ordered 0..n-1 with exactly one primary;
 * only the owner changes them; files are written before the row commits and removed after the
 * row is gone, so a visible photo always has its files.
 */
@Injectable()
export class PhotosService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly photos: PhotosRepository,
    private readonly profiles: ProfilesRepository,
    private readonly profileService: ProfilesService,
    private readonly outbox: OutboxService,
    private readonly images: ImageProcessor,
    private readonly processing: PhotoProcessingQueue,
    @Inject(PHOTO_STORAGE) private readonly storage: PhotoStorage,
    @Inject(ProfileEnv) private readonly env: ProfileEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async list(userId: string): Promise<PhotoDto[]> {
    return (await this.photos.listOfUser(userId)).map(toPhotoDto);
  }

  async upload(
    userId: string,
    file: UploadedPhotoFile | undefined,
    context: UploadContext,
  ): Promise<PhotoUploadResponse> {
    const limits = UPLOAD_LIMITS[context];
    if (!file?.buffer?.length) throw badRequest(ProfileMessages.notAnImage, ProfileErrorCode.NotAnImage);
    if (file.buffer.length > limits.maxBytes) throw photoTooLarge(context);
    const profile = await this.profiles.findByUserId(userId);
    if (!profile) throw notFound(ProfileMessages.profileNotFound, ProfileErrorCode.ProfileNotFound);
    // The onboarding allowance ends with onboarding: afterwards the profile screen's 5 MB applies.
    if (context === 'onboarding' && profile.onboardingCompleted && file.buffer.length > UPLOAD_LIMITS.profile.maxBytes) {
      throw photoTooLarge('profile');
    }
    // Checked again under the lock below; this spares the image work when already full.
    if ((await this.photos.countOfProfile(profile.id)) >= MAX_PHOTOS)
      throw badRequest(ProfileMessages.tooManyPhotos, ProfileErrorCode.TooManyPhotos);

    let encoded: EncodedPhoto;
    try {
      encoded = await this.processing.run(() => this.images.process(file.buffer));
    } catch (e) {
      if (e instanceof ImageRejected) {
        throw e.reason === 'too-many-pixels'
          ? badRequest(ProfileMessages.imageTooLargeToProcess, ProfileErrorCode.ImageTooLargeToProcess)
          : badRequest(limits.wrongType, ProfileErrorCode.NotAnImage);
      }
      throw e;
    }

    const photoId = randomUUID();
    const storageKey = storageKeyOf(userId, photoId);
    const url = photoFileUrl(photoId);
    await Promise.all(
      SIZE_NAMES.map((size) =>
        this.storage.put(fileKeyOf(storageKey, size), encoded[size].body, PHOTO_CONTENT_TYPE),
      ),
    );
    try {
      const photo = await this.dataSource.transaction(async (manager) => {
        const locked = await this.lockProfile(manager, userId);
        const count = await this.photos.countOfProfile(locked.id, manager);
        if (count >= MAX_PHOTOS) throw badRequest(ProfileMessages.tooManyPhotos, ProfileErrorCode.TooManyPhotos);
        const sizes: StoredSizes = {};
        for (const size of SIZE_NAMES)
          sizes[size] = { width: encoded[size].width, height: encoded[size].height };
        await this.photos.insert(manager, {
          id: photoId,
          profileId: locked.id,
          userId,
          url,
          isPrimary: false,
          order: count,
          storageKey,
          sizes,
          hiddenFromMembers: this.env.PHOTO_HIDDEN_UNTIL_SCORED,
        });
        await this.photos.normalise(manager, locked.id);
        await this.outbox.publish(manager, 'photo.uploaded', {
          photoId,
          userId,
          url,
          uploadedAt: new Date().toISOString(),
        });
        // Scored once by the offline classifier (issue 13): visible to others (unless
        // PHOTO_HIDDEN_UNTIL_SCORED) until it is scored above the threshold.
        await this.outbox.enqueueJob(manager, QueueName.PhotoScan, { photoId });
        await this.profileService.publishUpdated(manager, userId, locked);
        return this.ownPhoto(manager, userId, photoId);
      });
      return { url, photo };
    } catch (e) {
      await this.removeFiles(storageKey);
      throw e;
    }
  }

  /**
   * POST /api/profile/me/photos: only a photo this member uploaded to Mate, named by its URL.
   * Nothing is ever fetched from a URL.
   */
  async attach(userId: string, url: string, isPrimary: boolean | undefined): Promise<PhotoDto> {
    const photoId = photoIdOfUrl(url);
    if (!photoId) throw badRequest(ProfileMessages.photoNotUploadedHere, ProfileErrorCode.PhotoNotUploadedHere);
    return this.dataSource.transaction(async (manager) => {
      const profile = await this.lockProfile(manager, userId);
      const photo = await this.photos.findOwn(manager, userId, photoId);
      if (!photo) throw badRequest(ProfileMessages.photoNotUploadedHere, ProfileErrorCode.PhotoNotUploadedHere);
      if (isPrimary && !photo.isPrimary) {
        await this.photos.setPrimary(manager, profile.id, photo.id);
        await this.profileService.publishUpdated(manager, userId, profile);
      }
      return this.ownPhoto(manager, userId, photoId);
    });
  }

  async makePrimary(userId: string, photoId: string): Promise<PhotoDto[]> {
    return this.dataSource.transaction(async (manager) => {
      const profile = await this.lockProfile(manager, userId);
      const photo = await this.photos.findOwn(manager, userId, photoId);
      if (!photo) throw notFound(ProfileMessages.photoNotFound, ProfileErrorCode.PhotoNotFound);
      if (!photo.isPrimary) {
        await this.photos.setPrimary(manager, profile.id, photo.id);
        await this.profileService.publishUpdated(manager, userId, profile);
      }
      return (await this.photos.listOfUser(userId, manager)).map(toPhotoDto);
    });
  }

  /** The given orders are ranks: photos are renumbered 0..n-1 in that sequence (ties keep list order). */
  async reorder(userId: string, photoOrders: PhotoOrderDto[]): Promise<PhotoDto[]> {
    return this.dataSource.transaction(async (manager) => {
      const profile = await this.lockProfile(manager, userId);
      const current = await this.photos.listOfUser(userId, manager);
      const given = photoOrders.map((p) => p.id.toLowerCase());
      const own = new Set(current.map((p) => p.id));
      const sameSet =
        given.length === current.length &&
        new Set(given).size === given.length &&
        given.every((id) => own.has(id));
      if (!sameSet) throw badRequest(ProfileMessages.photoOrderMismatch, ProfileErrorCode.PhotoOrderMismatch);

      const sequence = photoOrders
        .map((p, index) => ({ id: p.id.toLowerCase(), order: p.order, index }))
        .sort((a, b) => a.order - b.order || a.index - b.index)
        .map((p) => p.id);
      const changed = sequence.some((id, i) => current[i].id !== id || current[i].order !== i);
      if (changed) {
        await this.photos.applyOrder(manager, sequence);
        await this.photos.normalise(manager, profile.id);
        await this.profileService.publishUpdated(manager, userId, profile);
      }
      return (await this.photos.listOfUser(userId, manager)).map(toPhotoDto);
    });
  }

  /** Deletes the row (the next photo becomes primary, orders close up), then the files. */
  async remove(userId: string, photoId: string): Promise<PhotoDto[]> {
    const { remaining, storageKey } = await this.dataSource.transaction(async (manager) => {
      const profile = await this.lockProfile(manager, userId);
      const photo = await this.photos.findOwn(manager, userId, photoId);
      if (!photo) throw notFound(ProfileMessages.photoNotFound, ProfileErrorCode.PhotoNotFound);
      await this.photos.delete(manager, photo.id);
      await this.photos.normalise(manager, profile.id);
      await this.outbox.publish(manager, 'photo.deleted', {
        photoId: photo.id,
        userId,
        deletedAt: new Date().toISOString(),
      });
      await this.profileService.publishUpdated(manager, userId, profile);
      const left = (await this.photos.listOfUser(userId, manager)).map(toPhotoDto);
      return { remaining: left, storageKey: photo.storageKey };
    });
    if (storageKey) await this.removeFiles(storageKey);
    return remaining;
  }

  /**
   * A stored size of a visible photo, or null (unknown id, deleted, rejected, no such size). Asked
   * on every request, revalidations included, so a deleted or rejected photo answers 404 at once.
   */
  async findFile(photoId: string, size: PhotoSize): Promise<PhotoFile | null> {
    const photo = await this.photos.findServable(photoId);
    if (!photo?.storageKey || !photo.sizes?.[size]) return null;
    const key = fileKeyOf(photo.storageKey, size);
    // A photo's file never changes (a new picture is a new photo id), so its id and size name it.
    return { etag: `"${photo.id}-${size}"`, open: () => this.storage.get(key) };
  }

  private async ownPhoto(manager: EntityManager, userId: string, photoId: string): Promise<PhotoDto> {
    const photo = await this.photos.findOwn(manager, userId, photoId);
    if (!photo) throw notFound(ProfileMessages.photoNotFound, ProfileErrorCode.PhotoNotFound);
    return toPhotoDto(photo);
  }

  private async lockProfile(manager: EntityManager, userId: string): Promise<Profile> {
    const profile = await this.profiles.lockByUserId(manager, userId);
    if (!profile) throw notFound(ProfileMessages.profileNotFound, ProfileErrorCode.ProfileNotFound);
    return profile;
  }

  /** Files of a photo whose row is gone (or never committed); a failure only leaves an orphan file. */
  private async removeFiles(storageKey: string): Promise<void> {
    const results = await Promise.allSettled(
      SIZE_NAMES.map((size) => this.storage.delete(fileKeyOf(storageKey, size))),
    );
    const failed = results.filter((r) => r.status === 'rejected');
    if (failed.length)
      this.logger.warn(
        { storageKey, err: (failed[0] as PromiseRejectedResult).reason },
        'photo files left behind',
      );
  }
}
