// @Type reads the design types the decorators record.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsObject, ValidateNested } from 'class-validator';
import {
  DRINKING_VALUES,
  EXERCISE_VALUES,
  PETS_VALUES,
  SMOKING_VALUES,
  type DrinkingValue,
  type ExerciseValue,
  type OnboardingCompletedPayload,
  type PetsValue,
  type PhotoDeletedPayload,
  type PhotoModeratedPayload,
  type PhotoUploadedPayload,
  type PreferencesUpdatedPayload,
  type ProfilePhotoRef,
  type ProfileUpdatedPayload,
  type SmokingValue,
} from '@mate/contracts';
import { Amount, Flag, Id, KnownOr, Nullable, OneOf, Optional, Text, TextList, Time } from './payload-fields';

/** A photo of the Discover card: its id and URL passed on as profile-service wrote them. */
export class ProfilePhotoRefField implements ProfilePhotoRef {
  @Text() id!: string;
  @Text() url!: string;
}

/**
 * `profile.updated` (profile-service): the whole profile. Lifestyle, bio, occupation and photos
 * are additive (schema version 1 still): an envelope written before them lacks them. A lifestyle
 * answer this build does not know (a newer producer's) reads as not said.
 */
export class ProfileUpdatedEvent implements ProfileUpdatedPayload {
  @Id() userId!: string;
  @Nullable() @Text() name!: string | null;
  @Nullable() @IsInt() age!: number | null;
  @Nullable() @Text() gender!: string | null;
  @Nullable() @Text() lookingFor!: string | null;
  @TextList() interests!: string[];
  @Nullable() @Amount() height!: number | null;
  @Nullable() @Text() education!: string | null;
  @Nullable() @Amount() latitude!: number | null;
  @Nullable() @Amount() longitude!: number | null;
  @Nullable() @Text() locationText!: string | null;
  @Flag() hasPhoto!: boolean;
  @Nullable() @Text() profilePicture!: string | null;
  @Flag() isVerified!: boolean;
  @Flag() onboardingCompleted!: boolean;
  @KnownOr(SMOKING_VALUES, null) @Optional() @IsIn(SMOKING_VALUES) smoking?: SmokingValue | null;
  @KnownOr(DRINKING_VALUES, null) @Optional() @IsIn(DRINKING_VALUES) drinking?: DrinkingValue | null;
  @KnownOr(EXERCISE_VALUES, null) @Optional() @IsIn(EXERCISE_VALUES) exercise?: ExerciseValue | null;
  @KnownOr(PETS_VALUES, null) @Optional() @IsIn(PETS_VALUES) pets?: PetsValue | null;
  @Optional() @Text() bio?: string | null;
  @Optional() @Text() occupation?: string | null;
  @Optional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ProfilePhotoRefField)
  photos?: ProfilePhotoRef[];
  @Time() updatedAt!: string;
}

/** `photo.uploaded` (profile-service). */
export class PhotoUploadedEvent implements PhotoUploadedPayload {
  @Id() photoId!: string;
  @Id() userId!: string;
  @Text() url!: string;
  @Time() uploadedAt!: string;
}

/** `photo.deleted` (profile-service). */
export class PhotoDeletedEvent implements PhotoDeletedPayload {
  @Id() photoId!: string;
  @Id() userId!: string;
  @Time() deletedAt!: string;
}

/** `photo.moderated` (profile-service). */
export class PhotoModeratedEvent implements PhotoModeratedPayload {
  @Id() photoId!: string;
  @Id() userId!: string;
  @OneOf(['scored', 'approved', 'rejected']) outcome!: 'scored' | 'approved' | 'rejected';
  @Nullable() @Amount() riskScore!: number | null;
  @Flag() hidden!: boolean;
  @Nullable() @Text() reason!: string | null;
  @Time() at!: string;
}

/** `onboarding.completed` (profile-service). */
export class OnboardingCompletedEvent implements OnboardingCompletedPayload {
  @Id() userId!: string;
  @Time() completedAt!: string;
  @Flag() skipped!: boolean;
}

/** `preferences.updated` (profile-service): the whole preferences; `filters` as the member set them. */
export class PreferencesUpdatedEvent implements PreferencesUpdatedPayload {
  @Id() userId!: string;
  @Amount() minAge!: number;
  @Amount() maxAge!: number;
  @Amount() maxDistance!: number;
  @TextList() genderPreference!: string[];
  @IsObject() filters!: Record<string, unknown>;
  @Time() updatedAt!: string;
}
