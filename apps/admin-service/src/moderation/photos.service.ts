import { Injectable } from '@nestjs/common';
import { AdminErrorCode, ProfileErrorCode, QueueName, type AdminPhotoPart, type PendingPhotosResponseDto } from '@mate/contracts';
import { conflict, notFound, serviceUnavailable } from '@mate/server-kit';
import { AuditedCommands, type AdminActor, type CommandOutcome } from './audited-command';
import { OwnersClient } from './owners.client';

export const PHOTO_NOT_FOUND = 'Photo not found';
export const PHOTO_ALREADY_REVIEWED = 'This photo has already been reviewed';
const ALREADY_REVIEWED = { error: PHOTO_ALREADY_REVIEWED, code: AdminErrorCode.PhotoAlreadyReviewed };
const PHOTOS_UNAVAILABLE = 'Photos are unavailable right now (profile-service did not answer); try again';

/** The photo review queue (profile-service's, joined with the owners' names, emails, ages, genders) and the decisions on it. */
@Injectable()
export class AdminPhotosService {
  constructor(
    private readonly owners: OwnersClient,
    private readonly commands: AuditedCommands,
  ) {}

  async pending(): Promise<PendingPhotosResponseDto> {
    const queue = await this.owners.pendingPhotos();
    if (!queue.ok) throw serviceUnavailable(undefined, PHOTOS_UNAVAILABLE);
    const ids = [...new Set(queue.value.photos.map((p) => p.userId))];
    const [accounts, profiles] = await Promise.all([this.owners.accounts(ids), this.owners.profiles(ids)]);
    const account = new Map(accounts.ok ? accounts.value.map((a) => [a.id, a]) : []);
    const profile = new Map(profiles.ok ? profiles.value.map((p) => [p.userId, p]) : []);
    return {
      photos: queue.value.photos.map((photo) => {
        const a = account.get(photo.userId);
        const p = profile.get(photo.userId);
        return {
          ...photo,
          userName: p?.name ?? a?.name ?? null,
          userEmail: a?.email ?? null,
          userAge: p?.age ?? null,
          userGender: p?.gender ?? null,
        };
      }),
      stats: queue.value.stats,
    };
  }

  async approve(actor: AdminActor, photoId: string): Promise<CommandOutcome> {
    const photo = await this.pendingPhoto(photoId);
    return this.commands.run(actor, {
      action: 'approve_photo',
      targetUserId: photo.userId,
      resourceType: 'photo',
      resourceId: photoId,
      details: { riskScore: photo.riskScore },
      decision: ALREADY_REVIEWED,
      queue: QueueName.PhotoAdmin,
      job: { kind: 'approve', photoId, adminId: actor.adminId },
    });
  }

  async reject(actor: AdminActor, photoId: string, reason: string): Promise<CommandOutcome> {
    const photo = await this.pendingPhoto(photoId);
    return this.commands.run(actor, {
      action: 'reject_photo',
      targetUserId: photo.userId,
      resourceType: 'photo',
      resourceId: photoId,
      details: { reason, riskScore: photo.riskScore },
      decision: ALREADY_REVIEWED,
      queue: QueueName.PhotoAdmin,
      job: { kind: 'reject', photoId, reason, adminId: actor.adminId },
    });
  }

  private async pendingPhoto(photoId: string): Promise<AdminPhotoPart> {
    const photo = await this.owners.photo(photoId);
    if (!photo.ok) {
      throw photo.notFound
        ? notFound(PHOTO_NOT_FOUND, ProfileErrorCode.PhotoNotFound)
        : serviceUnavailable(undefined, PHOTOS_UNAVAILABLE);
    }
    if (photo.value.status !== 'pending') throw conflict(ALREADY_REVIEWED.error, ALREADY_REVIEWED.code);
    return photo.value;
  }
}
