import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import type { UserDeletedPayload } from '@mate/contracts';
import { eraseMemberTraces, LOGGER, type RateLimits } from '@mate/server-kit';
import { PhotosRepository } from '../photos/photos.repository';
import { fileKeyOf, memberPhotoFolderOf, PHOTO_SIZE_NAMES } from '../photos/photos.service';
import { PHOTO_STORAGE, type PhotoStorage } from '../photos/storage/photo-storage';
import {
  PHOTO_UPLOAD_LIMITER,
  PHOTO_UPLOAD_RATE_LIMITS,
  type PhotoUploadRateLimit,
} from '../photos/upload-rate-limits';
import { PreferencesRepository } from '../preferences/preferences.repository';
import { ProfilesRepository } from '../profiles/profiles.repository';

/**
 * Erases a member from profile-service on `user.deleted` (issue 12, docs/adr/0016-member-data.md),
 * inside the consumer's transaction: their profile (onboarding state included), photos (rows and
 * every stored file), preferences, their upload counters, and the kit's traces (the kit's
 * projections forget their suspension and the block pairs naming them, before this runs). Nothing
 * of theirs is kept for another member here: a blocked pair only hides two profiles from each
 * other, and the deleted member's profile is gone.
 *
 * The files go before the rows commit. Should the commit fail, the event is retried: the retry
 * finds no files (deleting one that is not there is no error) and deletes the rows. Running it
 * twice changes nothing.
 */
@Injectable()
export class ProfileErasure {
  constructor(
    private readonly profiles: ProfilesRepository,
    private readonly photos: PhotosRepository,
    private readonly preferences: PreferencesRepository,
    @Inject(PHOTO_STORAGE) private readonly storage: PhotoStorage,
    @Inject(PHOTO_UPLOAD_LIMITER) private readonly uploadLimits: RateLimits<PhotoUploadRateLimit>,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async erase(manager: EntityManager, { userId }: UserDeletedPayload): Promise<void> {
    // The profile row's lock: an upload or edit of the member still in flight finishes first (or
    // finds no profile afterwards and removes its own files).
    await this.profiles.lockForErasure(manager, userId);
    const storageKeys = await this.photos.storageKeysOf(manager, userId);
    const filesDeleted = await this.deleteFiles(userId, storageKeys);

    await this.photos.eraseMember(manager, userId);
    await this.profiles.eraseMember(manager, userId);
    await this.preferences.eraseMember(manager, userId);
    await eraseMemberTraces(manager, userId);

    for (const rule of Object.keys(PHOTO_UPLOAD_RATE_LIMITS) as PhotoUploadRateLimit[]) {
      await this.uploadLimits.reset(rule, userId);
    }
    // No id in the log: the erased member's id is kept nowhere.
    this.logger.info({ photos: storageKeys.length, filesDeleted }, 'member erased from profiles');
  }

  /**
   * The member's folder (every photo since issue 12, and any file an interrupted upload left there)
   * and, for photos stored before it at `photos/<photoId>`, each size under the row's key.
   */
  private async deleteFiles(userId: string, storageKeys: (string | null)[]): Promise<number> {
    const folder = memberPhotoFolderOf(userId);
    let deleted = await this.storage.deleteFolder(folder);
    for (const key of storageKeys) {
      if (!key || key.startsWith(`${folder}/`)) continue;
      await Promise.all(PHOTO_SIZE_NAMES.map((size) => this.storage.delete(fileKeyOf(key, size))));
      deleted += PHOTO_SIZE_NAMES.length;
    }
    return deleted;
  }
}
