import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  DEFAULT_FILTER_PREFERENCES,
  DEFAULT_PREFERENCES,
  ProfileErrorCode,
  ProfileMessages,
  type FilterPreferencesDto,
  type PreferencesDto,
  type PreferencesUpdatedPayload,
} from '@mate/contracts';
import { badRequest, OutboxService } from '@mate/server-kit';
import type { Preferences, PreferenceValues } from './preferences.entity';
import { PreferencesRepository } from './preferences.repository';
import type { UpdateFilterPreferencesDto, UpdatePreferencesDto } from './dto/preferences.dto';

/** What a member without a stored row has: both sets of defaults (they agree on the shared fields). */
export const DEFAULT_PREFERENCE_VALUES: PreferenceValues = {
  minAge: DEFAULT_PREFERENCES.minAge,
  maxAge: DEFAULT_PREFERENCES.maxAge,
  maxDistance: DEFAULT_PREFERENCES.maxDistance,
  genderPreference: [...DEFAULT_PREFERENCES.genderPreference],
  interests: [...DEFAULT_PREFERENCES.interests],
  dealbreakers: [...DEFAULT_PREFERENCES.dealbreakers],
  minHeight: DEFAULT_FILTER_PREFERENCES.minHeight ?? null,
  maxHeight: DEFAULT_FILTER_PREFERENCES.maxHeight ?? null,
  educationPreference: [...DEFAULT_FILTER_PREFERENCES.educationPreference],
  relationshipGoalPreference: [...DEFAULT_FILTER_PREFERENCES.relationshipGoalPreference],
  smokingPreference: [...DEFAULT_FILTER_PREFERENCES.smokingPreference],
  drinkingPreference: [...DEFAULT_FILTER_PREFERENCES.drinkingPreference],
  exercisePreference: [...DEFAULT_FILTER_PREFERENCES.exercisePreference],
  petsPreference: [...DEFAULT_FILTER_PREFERENCES.petsPreference],
  requiredInterests: [...DEFAULT_FILTER_PREFERENCES.requiredInterests],
};

export function preferenceValuesOf(row: Preferences | null): PreferenceValues {
  if (!row) return { ...DEFAULT_PREFERENCE_VALUES };
  const { userId: _userId, createdAt: _createdAt, updatedAt: _updatedAt, ...values } = row;
  return values;
}

export function toPreferencesDto(v: PreferenceValues): PreferencesDto {
  return {
    minAge: v.minAge,
    maxAge: v.maxAge,
    maxDistance: v.maxDistance,
    genderPreference: v.genderPreference,
    interests: v.interests,
    dealbreakers: v.dealbreakers,
  };
}

export function toFilterPreferencesDto(v: PreferenceValues): FilterPreferencesDto {
  return {
    minAge: v.minAge,
    maxAge: v.maxAge,
    maxDistance: v.maxDistance,
    minHeight: v.minHeight,
    maxHeight: v.maxHeight,
    genderPreference: v.genderPreference,
    educationPreference: v.educationPreference,
    relationshipGoalPreference: v.relationshipGoalPreference,
    smokingPreference: v.smokingPreference,
    drinkingPreference: v.drinkingPreference,
    exercisePreference: v.exercisePreference,
    petsPreference: v.petsPreference,
    requiredInterests: v.requiredInterests,
  };
}

/** preferences.updated: the whole stored row, so a consumer needs no earlier event. */
export function toPreferencesUpdatedPayload(stored: Preferences): PreferencesUpdatedPayload {
  const { minAge, maxAge, maxDistance, genderPreference, ...filters } = preferenceValuesOf(stored);
  return {
    userId: stored.userId,
    minAge,
    maxAge,
    maxDistance,
    genderPreference,
    filters,
    updatedAt: stored.updatedAt.toISOString(),
  };
}

/** The rules across fields, checked on the values that will be stored. */
function checkRanges(v: PreferenceValues): void {
  if (v.minAge > v.maxAge) throw badRequest(ProfileMessages.ageRangeOrder, ProfileErrorCode.AgeRangeOrder);
  if (v.minHeight !== null && v.maxHeight !== null && v.minHeight > v.maxHeight) {
    throw badRequest(ProfileMessages.heightRangeOrder, ProfileErrorCode.HeightRangeOrder);
  }
}

/**
 * Match preferences (`/api/preferences/me`) and filter preferences (`/api/profile/me/preferences`),
 * stored in one row so the fields they share (ages, distance, genders) never disagree.
 */
@Injectable()
export class PreferencesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly preferences: PreferencesRepository,
    private readonly outbox: OutboxService,
  ) {}

  async getMatchPreferences(userId: string): Promise<PreferencesDto> {
    return toPreferencesDto(preferenceValuesOf(await this.preferences.find(userId)));
  }

  async getFilterPreferences(userId: string): Promise<FilterPreferencesDto> {
    return toFilterPreferencesDto(preferenceValuesOf(await this.preferences.find(userId)));
  }

  /** Partial: the fields sent replace the stored ones, the others stay. */
  async updateMatchPreferences(userId: string, body: UpdatePreferencesDto): Promise<PreferencesDto> {
    return toPreferencesDto(
      await this.save(userId, (current) => {
        const next = { ...current };
        for (const key of [
          'minAge',
          'maxAge',
          'maxDistance',
          'genderPreference',
          'interests',
          'dealbreakers',
        ] as const) {
          if (body[key] !== undefined && body[key] !== null) Object.assign(next, { [key]: body[key] });
        }
        return next;
      }),
    );
  }

  /** Whole: the filter set sent replaces the stored one (the match-only lists stay). */
  async updateFilterPreferences(
    userId: string,
    body: UpdateFilterPreferencesDto,
  ): Promise<FilterPreferencesDto> {
    return toFilterPreferencesDto(
      await this.save(userId, (current) => ({
        ...current,
        minAge: body.minAge,
        maxAge: body.maxAge,
        maxDistance: body.maxDistance,
        minHeight: body.minHeight ?? null,
        maxHeight: body.maxHeight ?? null,
        genderPreference: body.genderPreference ?? [],
        educationPreference: body.educationPreference ?? [],
        relationshipGoalPreference: body.relationshipGoalPreference ?? [],
        smokingPreference: body.smokingPreference ?? [],
        drinkingPreference: body.drinkingPreference ?? [],
        exercisePreference: body.exercisePreference ?? [],
        petsPreference: body.petsPreference ?? [],
        requiredInterests: body.requiredInterests ?? [],
      })),
    );
  }

  /** Reads (locked), changes, checks, stores and publishes preferences.updated in one transaction. */
  private save(
    userId: string,
    change: (current: PreferenceValues) => PreferenceValues,
  ): Promise<PreferenceValues> {
    return this.dataSource.transaction(async (manager: EntityManager) => {
      const next = change(preferenceValuesOf(await this.preferences.findForUpdate(manager, userId)));
      checkRanges(next);
      const stored = await this.preferences.save(manager, userId, next);
      await this.outbox.publish(manager, 'preferences.updated', toPreferencesUpdatedPayload(stored));
      return preferenceValuesOf(stored);
    });
  }
}
