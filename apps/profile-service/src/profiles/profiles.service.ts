import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  coarseDistanceLabel,
  NAME_MAX_LENGTH,
  PROFILE_MAX_AGE,
  PROFILE_MIN_AGE,
  ProfileErrorCode,
  ProfileMessages,
  type MemberProfileDto,
  type OwnProfileDto,
  type PlaceSuggestionDto,
  type ProfileCompletionDto,
  type UserRegisteredPayload,
  type UserVerifiedPayload,
} from '@mate/contracts';
import { badRequest, MemberSuspensions, notFound, OutboxService, PairStates } from '@mate/server-kit';
import { Geocoder } from '../geocoding/geocoder';
import { completionPercentage } from './profile-completion';
import { greatCircleKm } from './member-distance';
import type { Profile } from './profile.entity';
import { toProfileDto, toProfileUpdatedPayload, toPublicProfileDto } from './profile.mapper';
import { ProfilesRepository, type LockedProfile, type ProfilePatch } from './profiles.repository';
import { PROFILE_FIELDS, type UpdateProfileDto } from './dto/update-profile.dto';
import { isCompleting, type CompleteOnboardingDto } from './dto/complete-onboarding.dto';

export const PROFILE_NOT_FOUND = ProfileMessages.profileNotFound;

/** What registration may put into a profile: a trimmed name, an age the profile rules allow. */
export function registrationFields(payload: Pick<UserRegisteredPayload, 'userId' | 'name' | 'age'>) {
  const name = typeof payload.name === 'string' ? payload.name.trim().slice(0, NAME_MAX_LENGTH) : '';
  const { age } = payload;
  const allowedAge =
    typeof age === 'number' && Number.isInteger(age) && age >= PROFILE_MIN_AGE && age <= PROFILE_MAX_AGE
      ? age
      : null;
  return { userId: payload.userId, name: name || null, age: allowedAge };
}

/** Only the columns whose value differs from what is stored. */
function changesOf(profile: Profile, patch: ProfilePatch): ProfilePatch {
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    const current = (profile as unknown as Record<string, unknown>)[key];
    if (JSON.stringify(current ?? null) !== JSON.stringify(value ?? null)) changed[key] = value;
  }
  return changed as ProfilePatch;
}

/** The profile rules. */
@Injectable()
export class ProfilesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly profiles: ProfilesRepository,
    private readonly outbox: OutboxService,
    private readonly geocoder: Geocoder,
    private readonly pairs: PairStates,
    private readonly suspensions: MemberSuspensions,
  ) {}

  async getOwnProfile(userId: string): Promise<OwnProfileDto> {
    const profile = await this.profiles.findByUserId(userId);
    // No profile yet: the registration event has not been handled (the client retries once).
    if (!profile) throw notFound(PROFILE_NOT_FOUND, ProfileErrorCode.ProfileNotFound);
    return toProfileDto(profile, await this.profiles.photosOf(profile.id));
  }

  /**
   * Another member's profile as `viewerId` may see it. Only members who are really on the platform
   * (verified, onboarded) can be looked at, and never across a block, whoever blocked whom (issue
   * 10), nor while they are suspended (issue 13): the same 404 as for an unknown member, so a block
   * or a suspension is not told apart from a missing profile.
   */
  async getPublicProfile(viewerId: string, userId: string): Promise<MemberProfileDto> {
    const [profile, viewer, blocked, suspended] = await Promise.all([
      this.profiles.findByUserId(userId),
      this.profiles.findByUserId(viewerId),
      this.pairs.isBlocked(viewerId, userId),
      this.suspensions.isSuspended(userId),
    ]);
    if (!profile || !profile.isVerified || !profile.onboardingCompleted || blocked || suspended)
      throw notFound(PROFILE_NOT_FOUND, ProfileErrorCode.ProfileNotFound);
    // The same coarse label as the Discover card: the coordinates themselves never leave the service.
    const distance = coarseDistanceLabel(viewer ? greatCircleKm(viewer, profile) : null);
    return { ...toPublicProfileDto(profile, await this.profiles.photosOf(profile.id)), distance };
  }

  async completion(userId: string): Promise<ProfileCompletionDto> {
    const profile = await this.profiles.findByUserId(userId);
    if (!profile) throw notFound(PROFILE_NOT_FOUND, ProfileErrorCode.ProfileNotFound);
    const photos = await this.profiles.photosOf(profile.id);
    return { percentage: completionPercentage({ ...profile, photoCount: photos.length }) };
  }

  /** GET /api/profile/places: the places a member may mean by what they typed so far. */
  searchPlaces(query: string, limit: number): Promise<PlaceSuggestionDto[]> {
    return this.geocoder.search(query, limit);
  }

  /**
   * PUT /api/profile/me: applies the fields that were sent (null clears one), geocodes a new
   * location, and publishes profile.updated when something changed, all in one transaction.
   */
  async updateProfile(userId: string, body: UpdateProfileDto): Promise<OwnProfileDto> {
    const patch: ProfilePatch = {};
    for (const field of PROFILE_FIELDS) {
      const value = body[field];
      if (value === undefined) continue;
      if (field === 'interests') patch.interests = (value as string[] | null) ?? [];
      else (patch as Record<string, unknown>)[field] = value;
    }
    if (patch.location !== undefined) Object.assign(patch, await this.locate(patch.location));

    // Four round trips: BEGIN, the profile locked with its photos, the change with its event, COMMIT.
    const dto = await this.dataSource.transaction(async (manager) => {
      const locked = await this.profiles.lockWithPhotos(manager, userId);
      if (!locked) throw notFound(PROFILE_NOT_FOUND, ProfileErrorCode.ProfileNotFound);
      return toProfileDto(await this.applyChanges(manager, locked, patch), locked.photos);
    });
    return dto.location !== null && dto.locationResolved === false
      ? { ...dto, locationNote: ProfileMessages.locationUnknown }
      : dto;
  }

  /**
   * POST /api/profile/me/complete-onboarding. No fields: skip (marks onboarding done). With the
   * fields: saves them and completes, which needs a photo. Repeating either changes nothing;
   * onboarding.completed is published when onboarding ends, and again if a skipped onboarding is
   * completed later.
   */
  async completeOnboarding(userId: string, body: CompleteOnboardingDto | undefined): Promise<OwnProfileDto> {
    const completing = isCompleting(body);
    const patch: ProfilePatch = {};
    if (completing && body) {
      Object.assign(patch, {
        name: body.name,
        age: body.age,
        gender: body.gender,
        bio: body.bio,
        interests: body.interests,
        lookingFor: body.lookingFor,
        location: body.location,
      });
      Object.assign(patch, await this.locate(body.location ?? null));
    }

    return this.dataSource.transaction(async (manager) => {
      const locked = await this.profiles.lockWithPhotos(manager, userId);
      if (!locked) throw notFound(PROFILE_NOT_FOUND, ProfileErrorCode.ProfileNotFound);
      const { profile, photos } = locked;
      let finishes = false;
      if (completing) {
        if (photos.length === 0) throw badRequest(ProfileMessages.photoRequired, ProfileErrorCode.PhotoRequired);
        finishes = !profile.onboardingCompleted || profile.onboardingSkipped;
        Object.assign(patch, { onboardingCompleted: true, onboardingSkipped: false });
      } else if (!profile.onboardingCompleted) {
        finishes = true;
        Object.assign(patch, { onboardingCompleted: true, onboardingSkipped: true });
      }
      const updated = await this.applyChanges(manager, locked, patch);
      if (finishes) {
        await this.outbox.publish(manager, 'onboarding.completed', {
          userId,
          completedAt: new Date().toISOString(),
          skipped: !completing,
        });
      }
      return toProfileDto(updated, photos);
    });
  }

  /**
   * Geocodes every profile whose location was never geocoded (rows a seeder wrote directly, or
   * written before geocoding existed) and publishes each change. Answers how many it handled.
   */
  async geocodeUngeocoded(batchSize = 200): Promise<number> {
    const seen = new Set<string>();
    for (;;) {
      const batch = (await this.profiles.ungeocoded(batchSize)).filter((p) => !seen.has(p.userId));
      if (batch.length === 0) return seen.size;
      for (const { userId, location } of batch) {
        seen.add(userId);
        const patch = await this.locate(location);
        await this.dataSource.transaction(async (manager) => {
          const locked = await this.profiles.lockWithPhotos(manager, userId);
          // Changed meanwhile (a member's edit geocodes by itself): nothing to do.
          if (!locked || locked.profile.location !== location || locked.profile.locationResolved !== null) return;
          await this.applyChanges(manager, locked, patch);
        });
      }
    }
  }

  /**
   * Geocodes again every location that was not found (issue 25: "Tromso" stored before names
   * were folded) and publishes each one now found, as a member's edit would. A place still
   * unknown is left as it is. Answers how many were found.
   */
  async resolveUnknownLocations(batchSize = 200): Promise<number> {
    let found = 0;
    let afterId: string | null = null;
    for (;;) {
      const batch = await this.profiles.unresolvedLocations(afterId, batchSize);
      if (batch.length === 0) return found;
      afterId = batch[batch.length - 1].id;
      for (const { userId, location } of batch) {
        const patch = await this.locate(location);
        if (!patch.locationResolved) continue;
        const changed = await this.dataSource.transaction(async (manager) => {
          const locked = await this.profiles.lockWithPhotos(manager, userId);
          // Edited meanwhile (an edit geocodes by itself): nothing to do.
          if (!locked || locked.profile.location !== location || locked.profile.locationResolved !== false) return false;
          await this.applyChanges(manager, locked, patch);
          return true;
        });
        if (changed) found += 1;
      }
    }
  }

  /** user.registered: both orders of registered/verified end in the same profile. */
  async applyRegistration(manager: EntityManager, payload: UserRegisteredPayload): Promise<void> {
    if (await this.profiles.upsertFromRegistration(manager, registrationFields(payload))) {
      await this.publishUpdated(manager, payload.userId);
    }
  }

  /**
   * user.verified, possibly before user.registered was handled. From schema version 2 it carries
   * the name and age too: the consumer skips a user.registered older than an applied verification,
   * so the verification fills what that registration would have.
   */
  async applyVerification(manager: EntityManager, payload: UserVerifiedPayload): Promise<void> {
    const carriesRegistration = payload.name !== undefined || payload.age !== undefined;
    const filled =
      carriesRegistration &&
      (await this.profiles.upsertFromRegistration(
        manager,
        registrationFields({ userId: payload.userId, name: payload.name ?? null, age: payload.age ?? null }),
      ));
    const verified = await this.profiles.upsertVerified(manager, payload.userId);
    if (filled || verified) await this.publishUpdated(manager, payload.userId);
  }

  /**
   * Publishes profile.updated with the whole profile as it is inside this transaction (photos
   * included): call it after any change, in the transaction that made it. A caller that changed
   * only photos passes the profile it locked (its row is unchanged), which saves reading it again.
   */
  async publishUpdated(manager: EntityManager, userId: string, locked?: Profile): Promise<void> {
    const profile = locked ?? (await this.profiles.findByUserId(userId, manager));
    if (!profile) return;
    const photos = await this.profiles.photosOf(profile.id, manager);
    await this.outbox.publish(manager, 'profile.updated', toProfileUpdatedPayload(profile, photos));
  }

  /**
   * Writes what differs from the locked profile and, if anything did, publishes the change, both
   * in one statement. Answers the profile as it now is, without reading it back.
   */
  private async applyChanges(manager: EntityManager, locked: LockedProfile, patch: ProfilePatch): Promise<Profile> {
    const { profile, photos, now } = locked;
    const changes = changesOf(profile, patch);
    if (Object.keys(changes).length === 0) return profile;
    const updated = this.profiles.changed(manager, profile, changes, now);
    await this.outbox.publishWithChange(
      manager,
      'profile.updated',
      toProfileUpdatedPayload(updated, photos),
      this.profiles.updateStatement(profile.id, changes),
    );
    return updated;
  }

  /** The private coordinate columns for a location text (cleared with it). */
  private async locate(location: string | null): Promise<ProfilePatch> {
    if (location === null) return { locationLat: null, locationLng: null, locationResolved: null };
    const place = await this.geocoder.geocode(location);
    return {
      locationLat: place?.latitude ?? null,
      locationLng: place?.longitude ?? null,
      locationResolved: place !== null,
    };
  }
}
