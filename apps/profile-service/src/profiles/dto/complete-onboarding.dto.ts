import { Transform } from 'class-transformer';
import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import {
  ALL_GENDERS,
  ALL_LOOKING_FOR,
  BIO_MAX_LENGTH,
  INTEREST_MAX_LENGTH,
  LOCATION_MAX_LENGTH,
  NAME_MAX_LENGTH,
  ONBOARDING_BIO_MIN_LENGTH,
  ONBOARDING_MAX_AGE,
  ONBOARDING_MAX_INTERESTS,
  ONBOARDING_MIN_AGE,
  ProfileMessages,
} from '@mate/contracts';
import { IsPersonName } from '@mate/server-kit';
import { trim, wordList } from '../../common/transforms';
import {
  AGE_INTEGER_MESSAGE,
  GENDER_MESSAGE,
  INTEREST_LENGTH_MESSAGE,
  INTERESTS_LIST_MESSAGE,
  LOOKING_FOR_MESSAGE,
} from './update-profile.dto';

export const ONBOARDING_FIELDS = [
  'name',
  'age',
  'gender',
  'bio',
  'interests',
  'lookingFor',
  'location',
] as const;

/** A body with any onboarding field completes onboarding; no body (or `{}`) skips it. */
export function isCompleting(body: object | null | undefined): boolean {
  if (!body) return false;
  return ONBOARDING_FIELDS.some((field) => (body as Record<string, unknown>)[field] !== undefined);
}

const INTERESTS_REQUIRED = 'Please add at least one interest';

/*
 * class-validator reports the decorator nearest the property first, so each field lists its
 * type check last: a wrong type says "must be a whole number", not "must be at most 120".
 */
/**
 * POST /api/profile/me/complete-onboarding. Completing needs every field, checked with the
 * onboarding rules of spec 000 §5 (stricter than the profile form: age 18-99, bio of at least 20
 * characters, 1 to 10 interests). Unknown fields are refused either way.
 */
export class CompleteOnboardingDto {
  @ApiPropertyOptional({ maxLength: NAME_MAX_LENGTH, description: 'Required when completing' })
  @ValidateIf(isCompleting)
  @Transform(trim)
  @IsPersonName()
  @MaxLength(NAME_MAX_LENGTH, { message: `Name must be at most ${NAME_MAX_LENGTH} characters` })
  @IsNotEmpty({ message: 'Name is required' })
  @IsString({ message: 'Name is required' })
  name?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: ONBOARDING_MIN_AGE, maximum: ONBOARDING_MAX_AGE })
  @ValidateIf(isCompleting)
  @Max(ONBOARDING_MAX_AGE, { message: `Age must be at most ${ONBOARDING_MAX_AGE}` })
  @Min(ONBOARDING_MIN_AGE, { message: ProfileMessages.underage })
  @IsInt({ message: AGE_INTEGER_MESSAGE })
  age?: number;

  /** The onboarding reading (prefer-not-to-say) and the profile form's (other) are both accepted. */
  @ApiPropertyOptional({ enum: ALL_GENDERS })
  @ValidateIf(isCompleting)
  @IsIn(ALL_GENDERS, { message: GENDER_MESSAGE })
  gender?: string;

  @ApiPropertyOptional({ minLength: ONBOARDING_BIO_MIN_LENGTH, maxLength: BIO_MAX_LENGTH })
  @ValidateIf(isCompleting)
  @Transform(trim)
  @MaxLength(BIO_MAX_LENGTH, { message: `Bio must be at most ${BIO_MAX_LENGTH} characters` })
  @MinLength(ONBOARDING_BIO_MIN_LENGTH, {
    message: `Bio must be at least ${ONBOARDING_BIO_MIN_LENGTH} characters`,
  })
  @IsString({ message: `Bio must be at least ${ONBOARDING_BIO_MIN_LENGTH} characters` })
  bio?: string;

  /** Trimmed, empty ones and case-insensitive duplicates dropped, then 1 to 10. */
  @ApiPropertyOptional({ type: [String], minItems: 1, maxItems: ONBOARDING_MAX_INTERESTS })
  @ValidateIf(isCompleting)
  @Transform(wordList)
  @MaxLength(INTEREST_MAX_LENGTH, { each: true, message: INTEREST_LENGTH_MESSAGE })
  @IsString({ each: true, message: INTERESTS_LIST_MESSAGE })
  @ArrayMaxSize(ONBOARDING_MAX_INTERESTS, { message: ProfileMessages.maxInterests })
  @ArrayMinSize(1, { message: INTERESTS_REQUIRED })
  @IsArray({ message: INTERESTS_REQUIRED })
  interests?: string[];

  @ApiPropertyOptional({ enum: ALL_LOOKING_FOR })
  @ValidateIf(isCompleting)
  @IsIn(ALL_LOOKING_FOR, { message: LOOKING_FOR_MESSAGE })
  lookingFor?: string;

  @ApiPropertyOptional({ maxLength: LOCATION_MAX_LENGTH, example: 'Austin, Texas' })
  @ValidateIf(isCompleting)
  @Transform(trim)
  @MaxLength(LOCATION_MAX_LENGTH, { message: `Location must be at most ${LOCATION_MAX_LENGTH} characters` })
  @IsNotEmpty({ message: 'Location is required' })
  @IsString({ message: 'Location is required' })
  location?: string;
}
