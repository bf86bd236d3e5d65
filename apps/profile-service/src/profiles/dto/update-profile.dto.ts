import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  ALL_GENDERS,
  ALL_LOOKING_FOR,
  BIO_MAX_LENGTH,
  EDUCATION_MAX_LENGTH,
  HEIGHT_MAX_CM,
  HEIGHT_MIN_CM,
  INTEREST_MAX_LENGTH,
  LOCATION_MAX_LENGTH,
  NAME_MAX_LENGTH,
  OCCUPATION_MAX_LENGTH,
  PROFILE_MAX_AGE,
  PROFILE_MAX_INTERESTS,
  PROFILE_MIN_AGE,
  ProfileMessages,
} from '@mate/contracts';
import { trimOrNull, wordList } from '../../common/transforms';

export const GENDER_MESSAGE = `Gender must be one of: ${ALL_GENDERS.join(', ')}`;
export const LOOKING_FOR_MESSAGE = `Looking for must be one of: ${ALL_LOOKING_FOR.join(', ')}`;
export const AGE_INTEGER_MESSAGE = 'Age must be a whole number';
export const INTEREST_LENGTH_MESSAGE = `Each interest must be at most ${INTEREST_MAX_LENGTH} characters`;
export const INTERESTS_LIST_MESSAGE = 'Interests must be a list of words';

/**
 * PUT /api/profile/me (spec 000 §5, profile form). Every field is optional: a missing field is
 * left as it is, null (or empty text) clears it. Text is trimmed.
 */
export class UpdateProfileDto {
  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: 'Name must be text' })
  @MaxLength(NAME_MAX_LENGTH, { message: `Name must be at most ${NAME_MAX_LENGTH} characters` })
  name?: string | null;

  @IsOptional()
  @IsInt({ message: AGE_INTEGER_MESSAGE })
  @Min(PROFILE_MIN_AGE, { message: ProfileMessages.underage })
  @Max(PROFILE_MAX_AGE, { message: `Age must be at most ${PROFILE_MAX_AGE}` })
  age?: number | null;

  @IsOptional()
  @Transform(trimOrNull)
  @IsIn(ALL_GENDERS, { message: GENDER_MESSAGE })
  gender?: string | null;

  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: 'Bio must be text' })
  @MaxLength(BIO_MAX_LENGTH, { message: `Bio must be at most ${BIO_MAX_LENGTH} characters` })
  bio?: string | null;

  /** Free text "City, State/Country"; geocoded offline. */
  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: 'Location must be text' })
  @MaxLength(LOCATION_MAX_LENGTH, { message: `Location must be at most ${LOCATION_MAX_LENGTH} characters` })
  location?: string | null;

  @IsOptional()
  @IsInt({ message: 'Height must be a whole number of centimetres' })
  @Min(HEIGHT_MIN_CM, { message: `Height must be between ${HEIGHT_MIN_CM} and ${HEIGHT_MAX_CM} cm` })
  @Max(HEIGHT_MAX_CM, { message: `Height must be between ${HEIGHT_MIN_CM} and ${HEIGHT_MAX_CM} cm` })
  height?: number | null;

  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: 'Occupation must be text' })
  @MaxLength(OCCUPATION_MAX_LENGTH, { message: `Occupation must be at most ${OCCUPATION_MAX_LENGTH} characters` })
  occupation?: string | null;

  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: 'Education must be text' })
  @MaxLength(EDUCATION_MAX_LENGTH, { message: `Education must be at most ${EDUCATION_MAX_LENGTH} characters` })
  education?: string | null;

  @IsOptional()
  @Transform(trimOrNull)
  @IsIn(ALL_LOOKING_FOR, { message: LOOKING_FOR_MESSAGE })
  lookingFor?: string | null;

  /** Trimmed, empty ones and case-insensitive duplicates dropped; at most 20 of up to 40 characters. */
  @IsOptional()
  @Transform(wordList)
  @IsArray({ message: INTERESTS_LIST_MESSAGE })
  @IsString({ each: true, message: INTERESTS_LIST_MESSAGE })
  @MaxLength(INTEREST_MAX_LENGTH, { each: true, message: INTEREST_LENGTH_MESSAGE })
  @ArrayMaxSize(PROFILE_MAX_INTERESTS, { message: `Maximum ${PROFILE_MAX_INTERESTS} interests allowed` })
  interests?: string[] | null;
}

/** The fields of the body, in the order they are applied. */
export const PROFILE_FIELDS = [
  'name',
  'age',
  'gender',
  'bio',
  'location',
  'height',
  'occupation',
  'education',
  'lookingFor',
  'interests',
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
