import { Transform } from 'class-transformer';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
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
  DISTANCE_MAX_KM,
  DISTANCE_MIN_KM,
  EDUCATION_OPTIONS,
  EXERCISE_OPTIONS,
  FILTER_GENDER_OPTIONS,
  FILTER_HEIGHT_MAX_CM,
  FILTER_HEIGHT_MIN_CM,
  INTEREST_MAX_LENGTH,
  INTERESTED_IN_OPTIONS,
  PETS_OPTIONS,
  PREFERENCE_LIST_MAX_ITEMS,
  PREFERENCES_MAX_AGE,
  PREFERENCES_MIN_AGE,
  RELATIONSHIP_GOAL_OPTIONS,
  SMOKING_DRINKING_OPTIONS,
} from '@mate/contracts';
import { optionList, wordList } from '../../common/transforms';

const AGE_RANGE = `between ${PREFERENCES_MIN_AGE} and ${PREFERENCES_MAX_AGE}`;
const MIN_AGE_MESSAGE = `Minimum age must be a whole number ${AGE_RANGE}`;
const MAX_AGE_MESSAGE = `Maximum age must be a whole number ${AGE_RANGE}`;
const DISTANCE_MESSAGE = `Distance must be a whole number between ${DISTANCE_MIN_KM} and ${DISTANCE_MAX_KM} km`;
const HEIGHT_MESSAGE = `Height must be a whole number between ${FILTER_HEIGHT_MIN_CM} and ${FILTER_HEIGHT_MAX_CM} cm, or empty`;

const values = (options: readonly { value: string }[]) => options.map((o) => o.value);
const among = (label: string, allowed: readonly string[]) => `${label} must be among: ${allowed.join(', ')}`;

/** Decorators of a closed option list: an array of allowed values, duplicates dropped. */
function OptionList(label: string, allowed: readonly string[]): PropertyDecorator {
  return (target, key) => {
    Transform(optionList)(target, key);
    IsArray({ message: among(label, allowed) })(target, key);
    IsIn(allowed, { each: true, message: among(label, allowed) })(target, key);
  };
}

/** Decorators of a free word list (interests, dealbreakers): at most 20 of up to 40 characters. */
function WordList(label: string): PropertyDecorator {
  const message = `${label} must be a list of at most ${PREFERENCE_LIST_MAX_ITEMS} words of up to ${INTEREST_MAX_LENGTH} characters`;
  return (target, key) => {
    Transform(wordList)(target, key);
    IsArray({ message })(target, key);
    IsString({ each: true, message })(target, key);
    MaxLength(INTEREST_MAX_LENGTH, { each: true, message })(target, key);
    ArrayMaxSize(PREFERENCE_LIST_MAX_ITEMS, { message })(target, key);
  };
}

function AgeLimit(message: string): PropertyDecorator {
  return (target, key) => {
    IsInt({ message })(target, key);
    Min(PREFERENCES_MIN_AGE, { message })(target, key);
    Max(PREFERENCES_MAX_AGE, { message })(target, key);
  };
}

function Distance(): PropertyDecorator {
  return (target, key) => {
    IsInt({ message: DISTANCE_MESSAGE })(target, key);
    Min(DISTANCE_MIN_KM, { message: DISTANCE_MESSAGE })(target, key);
    Max(DISTANCE_MAX_KM, { message: DISTANCE_MESSAGE })(target, key);
  };
}

function FilterHeight(): PropertyDecorator {
  return (target, key) => {
    IsOptional()(target, key);
    IsInt({ message: HEIGHT_MESSAGE })(target, key);
    Min(FILTER_HEIGHT_MIN_CM, { message: HEIGHT_MESSAGE })(target, key);
    Max(FILTER_HEIGHT_MAX_CM, { message: HEIGHT_MESSAGE })(target, key);
  };
}

/** PUT /api/preferences/me (spec 000 §3, §5): the fields sent replace the stored ones. */
export class UpdatePreferencesDto {
  @ApiPropertyOptional({ type: 'integer', minimum: PREFERENCES_MIN_AGE, maximum: PREFERENCES_MAX_AGE })
  @IsOptional()
  @AgeLimit(MIN_AGE_MESSAGE)
  minAge?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: PREFERENCES_MIN_AGE, maximum: PREFERENCES_MAX_AGE })
  @IsOptional()
  @AgeLimit(MAX_AGE_MESSAGE)
  maxAge?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: DISTANCE_MIN_KM, maximum: DISTANCE_MAX_KM, description: 'Kilometres' })
  @IsOptional()
  @Distance()
  maxDistance?: number;

  /** Interested in; empty means everyone (the "Select at least one" hint is not enforced). */
  @ApiPropertyOptional({ type: [String], enum: INTERESTED_IN_OPTIONS, description: 'Empty means everyone' })
  @IsOptional()
  @OptionList('Gender preference', INTERESTED_IN_OPTIONS)
  genderPreference?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: PREFERENCE_LIST_MAX_ITEMS })
  @IsOptional()
  @WordList('Interests')
  interests?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: PREFERENCE_LIST_MAX_ITEMS })
  @IsOptional()
  @WordList('Dealbreakers')
  dealbreakers?: string[];
}

/**
 * PUT /api/profile/me/preferences (spec 001 §3, §5): the whole filter set. Ages and distance are
 * required; a list left out means "everyone" (empty), a height left out means no limit.
 */
export class UpdateFilterPreferencesDto {
  @ApiProperty({ type: 'integer', minimum: PREFERENCES_MIN_AGE, maximum: PREFERENCES_MAX_AGE })
  @AgeLimit(MIN_AGE_MESSAGE)
  minAge!: number;

  @ApiProperty({ type: 'integer', minimum: PREFERENCES_MIN_AGE, maximum: PREFERENCES_MAX_AGE })
  @AgeLimit(MAX_AGE_MESSAGE)
  maxAge!: number;

  @ApiProperty({ type: 'integer', minimum: DISTANCE_MIN_KM, maximum: DISTANCE_MAX_KM, description: 'Kilometres' })
  @Distance()
  maxDistance!: number;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: FILTER_HEIGHT_MIN_CM, maximum: FILTER_HEIGHT_MAX_CM, description: 'Centimetres; empty means no limit' })
  @FilterHeight()
  minHeight?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: FILTER_HEIGHT_MIN_CM, maximum: FILTER_HEIGHT_MAX_CM, description: 'Centimetres; empty means no limit' })
  @FilterHeight()
  maxHeight?: number | null;

  @ApiPropertyOptional({ type: [String], enum: values(FILTER_GENDER_OPTIONS), description: 'Empty means everyone' })
  @IsOptional()
  @OptionList('Gender preference', values(FILTER_GENDER_OPTIONS))
  genderPreference?: string[];

  @ApiPropertyOptional({ type: [String], enum: values(EDUCATION_OPTIONS), description: 'Empty means everyone' })
  @IsOptional()
  @OptionList('Education preference', values(EDUCATION_OPTIONS))
  educationPreference?: string[];

  @ApiPropertyOptional({ type: [String], enum: values(RELATIONSHIP_GOAL_OPTIONS), description: 'Empty means everyone' })
  @IsOptional()
  @OptionList('Relationship goal preference', values(RELATIONSHIP_GOAL_OPTIONS))
  relationshipGoalPreference?: string[];

  @ApiPropertyOptional({ type: [String], enum: values(SMOKING_DRINKING_OPTIONS), description: 'Empty means everyone' })
  @IsOptional()
  @OptionList('Smoking preference', values(SMOKING_DRINKING_OPTIONS))
  smokingPreference?: string[];

  @ApiPropertyOptional({ type: [String], enum: values(SMOKING_DRINKING_OPTIONS), description: 'Empty means everyone' })
  @IsOptional()
  @OptionList('Drinking preference', values(SMOKING_DRINKING_OPTIONS))
  drinkingPreference?: string[];

  @ApiPropertyOptional({ type: [String], enum: values(EXERCISE_OPTIONS), description: 'Empty means everyone' })
  @IsOptional()
  @OptionList('Exercise preference', values(EXERCISE_OPTIONS))
  exercisePreference?: string[];

  @ApiPropertyOptional({ type: [String], enum: values(PETS_OPTIONS), description: 'Empty means everyone' })
  @IsOptional()
  @OptionList('Pets preference', values(PETS_OPTIONS))
  petsPreference?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: PREFERENCE_LIST_MAX_ITEMS })
  @IsOptional()
  @WordList('Required interests')
  requiredInterests?: string[];
}
