import { Transform } from 'class-transformer';
import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import {
  ALL_GENDERS,
  ALL_LOOKING_FOR,
  BIO_MAX_LENGTH,
  DRINKING_VALUES,
  EXERCISE_VALUES,
  PETS_VALUES,
  SMOKING_VALUES,
  type DrinkingValue,
  type ExerciseValue,
  type PetsValue,
  type SmokingValue,
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
import { IsPersonName } from '@mate/server-kit';
import { trimOrNull, wordList } from '../../common/transforms';

export const GENDER_MESSAGE = `Gender must be one of: ${ALL_GENDERS.join(', ')}`;
export const LOOKING_FOR_MESSAGE = `Looking for must be one of: ${ALL_LOOKING_FOR.join(', ')}`;
export const SMOKING_MESSAGE = `Smoking must be one of: ${SMOKING_VALUES.join(', ')}`;
export const DRINKING_MESSAGE = `Drinking must be one of: ${DRINKING_VALUES.join(', ')}`;
export const EXERCISE_MESSAGE = `Exercise must be one of: ${EXERCISE_VALUES.join(', ')}`;
export const PETS_MESSAGE = `Pets must be one of: ${PETS_VALUES.join(', ')}`;
export const AGE_INTEGER_MESSAGE = 'Age must be a whole number';
export const INTEREST_LENGTH_MESSAGE = `Each interest must be at most ${INTEREST_MAX_LENGTH} characters`;
export const INTERESTS_LIST_MESSAGE = 'Interests must be a list of words';

/*
 * class-validator reports the decorator nearest the property first, so each field lists its
 * type check last: a wrong type says "must be a whole number", not "must be at most 120".
 */
/**
 * PUT /api/profile/me (spec 000 §5, profile form). Every field is optional: a missing field is
 * left as it is, null (or empty text) clears it. Text is trimmed.
 */
export class UpdateProfileDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: NAME_MAX_LENGTH })
  @IsOptional()
  @Transform(trimOrNull)
  @IsPersonName()
  @MaxLength(NAME_MAX_LENGTH, { message: `Name must be at most ${NAME_MAX_LENGTH} characters` })
  @IsString({ message: 'Name must be text' })
  name?: string | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: PROFILE_MIN_AGE, maximum: PROFILE_MAX_AGE })
  @IsOptional()
  @Max(PROFILE_MAX_AGE, { message: `Age must be at most ${PROFILE_MAX_AGE}` })
  @Min(PROFILE_MIN_AGE, { message: ProfileMessages.underage })
  @IsInt({ message: AGE_INTEGER_MESSAGE })
  age?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, enum: ALL_GENDERS })
  @IsOptional()
  @Transform(trimOrNull)
  @IsIn(ALL_GENDERS, { message: GENDER_MESSAGE })
  gender?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: BIO_MAX_LENGTH })
  @IsOptional()
  @Transform(trimOrNull)
  @MaxLength(BIO_MAX_LENGTH, { message: `Bio must be at most ${BIO_MAX_LENGTH} characters` })
  @IsString({ message: 'Bio must be text' })
  bio?: string | null;

  /** Free text "City, State/Country"; geocoded offline. */
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: LOCATION_MAX_LENGTH, example: 'Austin, Texas' })
  @IsOptional()
  @Transform(trimOrNull)
  @MaxLength(LOCATION_MAX_LENGTH, { message: `Location must be at most ${LOCATION_MAX_LENGTH} characters` })
  @IsString({ message: 'Location must be text' })
  location?: string | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: HEIGHT_MIN_CM, maximum: HEIGHT_MAX_CM, description: 'Centimetres' })
  @IsOptional()
  @Max(HEIGHT_MAX_CM, { message: `Height must be between ${HEIGHT_MIN_CM} and ${HEIGHT_MAX_CM} cm` })
  @Min(HEIGHT_MIN_CM, { message: `Height must be between ${HEIGHT_MIN_CM} and ${HEIGHT_MAX_CM} cm` })
  @IsInt({ message: 'Height must be a whole number of centimetres' })
  height?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: OCCUPATION_MAX_LENGTH })
  @IsOptional()
  @Transform(trimOrNull)
  @MaxLength(OCCUPATION_MAX_LENGTH, {
    message: `Occupation must be at most ${OCCUPATION_MAX_LENGTH} characters`,
  })
  @IsString({ message: 'Occupation must be text' })
  occupation?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: EDUCATION_MAX_LENGTH })
  @IsOptional()
  @Transform(trimOrNull)
  @MaxLength(EDUCATION_MAX_LENGTH, {
    message: `Education must be at most ${EDUCATION_MAX_LENGTH} characters`,
  })
  @IsString({ message: 'Education must be text' })
  education?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, enum: ALL_LOOKING_FOR })
  @IsOptional()
  @Transform(trimOrNull)
  @IsIn(ALL_LOOKING_FOR, { message: LOOKING_FOR_MESSAGE })
  lookingFor?: string | null;

  /** Trimmed, empty ones and case-insensitive duplicates dropped; at most 20 of up to 40 characters. */
  @ApiPropertyOptional({ type: [String], nullable: true, maxItems: PROFILE_MAX_INTERESTS })
  @IsOptional()
  @Transform(wordList)
  @ArrayMaxSize(PROFILE_MAX_INTERESTS, { message: `Maximum ${PROFILE_MAX_INTERESTS} interests allowed` })
  @MaxLength(INTEREST_MAX_LENGTH, { each: true, message: INTEREST_LENGTH_MESSAGE })
  @IsString({ each: true, message: INTERESTS_LIST_MESSAGE })
  @IsArray({ message: INTERESTS_LIST_MESSAGE })
  interests?: string[] | null;

  /**
   * Lifestyle (issue 8): a stored value of spec 001 §3 (lower-case, as `SMOKING_DRINKING_OPTIONS`
   * etc. list them; a label such as "Never" is refused), or null (or empty text) to clear it.
   */
  @ApiPropertyOptional({ type: String, nullable: true, enum: SMOKING_VALUES })
  @IsOptional()
  @Transform(trimOrNull)
  @IsIn(SMOKING_VALUES, { message: SMOKING_MESSAGE })
  smoking?: SmokingValue | null;

  @ApiPropertyOptional({ type: String, nullable: true, enum: DRINKING_VALUES })
  @IsOptional()
  @Transform(trimOrNull)
  @IsIn(DRINKING_VALUES, { message: DRINKING_MESSAGE })
  drinking?: DrinkingValue | null;

  @ApiPropertyOptional({ type: String, nullable: true, enum: EXERCISE_VALUES })
  @IsOptional()
  @Transform(trimOrNull)
  @IsIn(EXERCISE_VALUES, { message: EXERCISE_MESSAGE })
  exercise?: ExerciseValue | null;

  @ApiPropertyOptional({ type: String, nullable: true, enum: PETS_VALUES })
  @IsOptional()
  @Transform(trimOrNull)
  @IsIn(PETS_VALUES, { message: PETS_MESSAGE })
  pets?: PetsValue | null;
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
  'smoking',
  'drinking',
  'exercise',
  'pets',
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
