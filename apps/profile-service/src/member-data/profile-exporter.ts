import { Injectable } from '@nestjs/common';
import type { ProfileExportPart } from '@mate/contracts';
import type { MemberExporter } from '@mate/server-kit';
import { PhotosRepository } from '../photos/photos.repository';
import { preferenceValuesOf, toFilterPreferencesDto, toPreferencesDto } from '../preferences/preferences.service';
import { PreferencesRepository } from '../preferences/preferences.repository';
import { toProfileDto } from '../profiles/profile.mapper';
import { ProfilesRepository } from '../profiles/profiles.repository';

/**
 * profile-service's part of a member's data export (issue 12): the profile exactly as their own
 * `GET /api/profile/me` shows it, plus what that screen leaves out (the private coordinates and the
 * onboarding skip); every photo they have, rejected ones too; both preference sets when ever saved.
 */
@Injectable()
export class ProfileExporter implements MemberExporter<ProfileExportPart> {
  constructor(
    private readonly photos: PhotosRepository,
    private readonly profiles: ProfilesRepository,
    private readonly preferences: PreferencesRepository,
  ) {}

  async exportMember(userId: string): Promise<ProfileExportPart> {
    const [profile, photos, preferences] = await Promise.all([
      this.profiles.findByUserId(userId),
      // Every photo row, rejected ones too (the own profile shows only the visible ones).
      this.photos.allOfUser(userId),
      this.preferences.find(userId),
    ]);
    const values = preferences && preferenceValuesOf(preferences);
    return {
      profile: profile && { ...toProfileDto(profile, photos) },
      photos: photos.map((photo) => ({
        id: photo.id,
        order: photo.order,
        isPrimary: photo.isPrimary,
        status: photo.moderationStatus,
        uploadedAt: photo.createdAt.toISOString(),
        // The URL the app shows the photo with: its largest size, served without a session (an
        // <img> sends no token; the id is a random UUID). A rejected photo is no longer served.
        downloadUrl: photo.url,
      })),
      preferences: values && { match: toPreferencesDto(values), filters: toFilterPreferencesDto(values) },
      privateFields: profile && {
        latitude: profile.locationLat,
        longitude: profile.locationLng,
        onboardingSkipped: profile.onboardingSkipped,
      },
    };
  }
}
