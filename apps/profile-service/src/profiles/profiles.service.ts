import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  NAME_MAX_LENGTH,
  PROFILE_MAX_AGE,
  PROFILE_MIN_AGE,
  type ProfileDto,
  type UserRegisteredPayload,
  type UserVerifiedPayload,
} from '@mate/contracts';
import { notFound } from '@mate/server-kit';
import { toProfileDto } from './profile.mapper';
import { ProfilesRepository } from './profiles.repository';

export const PROFILE_NOT_FOUND = 'Profile not found';

/** What registration may put into a profile: a trimmed name, an age the profile rules allow. */
export function registrationFields(payload: UserRegisteredPayload) {
  const name = typeof payload.name === 'string' ? payload.name.trim().slice(0, NAME_MAX_LENGTH) : '';
  const { age } = payload;
  const allowedAge =
    typeof age === 'number' && Number.isInteger(age) && age >= PROFILE_MIN_AGE && age <= PROFILE_MAX_AGE
      ? age
      : null;
  return { userId: payload.userId, name: name || null, age: allowedAge };
}

/** The profile rules. */
@Injectable()
export class ProfilesService {
  constructor(private readonly profiles: ProfilesRepository) {}

  async getOwnProfile(userId: string): Promise<ProfileDto> {
    const profile = await this.profiles.findByUserId(userId);
    // No profile yet: the registration event has not been handled (the client retries once).
    if (!profile) throw notFound(PROFILE_NOT_FOUND);
    return toProfileDto(profile, await this.profiles.photosOf(profile.id));
  }

  async completeOnboarding(userId: string): Promise<ProfileDto> {
    if (!(await this.profiles.markOnboardingCompleted(userId))) throw notFound(PROFILE_NOT_FOUND);
    return this.getOwnProfile(userId);
  }

  /** user.registered: both orders of registered/verified end in the same profile. */
  async applyRegistration(manager: EntityManager, payload: UserRegisteredPayload): Promise<void> {
    await this.profiles.upsertFromRegistration(manager, registrationFields(payload));
  }

  /** user.verified, possibly before user.registered was handled. */
  async applyVerification(manager: EntityManager, payload: UserVerifiedPayload): Promise<void> {
    await this.profiles.upsertVerified(manager, payload.userId);
  }
}
