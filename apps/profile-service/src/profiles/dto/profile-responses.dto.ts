import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  DRINKING_VALUES,
  EXERCISE_VALUES,
  PETS_VALUES,
  SMOKING_VALUES,
  type DrinkingValue,
  type ExerciseValue,
  type MemberProfileDto,
  type PlaceSuggestionDto,
  type OwnProfileDto,
  type PetsValue,
  type ProfileCompletionDto,
  type PublicProfileDto,
  type SmokingValue,
} from '@mate/contracts';
import { PhotoResponseDto } from '../../photos/dto/photo-responses.dto';

const text = { type: String, nullable: true } as const;
const whole = { type: 'integer', nullable: true } as const;

/** Response shapes for the OpenAPI document; the contracts' interfaces keep them honest. */
export class PublicProfileResponseDto implements PublicProfileDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) userId!: string;
  @ApiProperty(text) name!: string | null;
  @ApiProperty(whole) age!: number | null;
  @ApiProperty(text) gender!: string | null;
  @ApiProperty(text) bio!: string | null;
  @ApiProperty({ ...text, example: 'Austin, Texas' }) location!: string | null;
  @ApiProperty({ ...whole, description: 'Centimetres' }) height!: number | null;
  @ApiProperty(text) occupation!: string | null;
  @ApiProperty(text) education!: string | null;
  @ApiProperty(text) lookingFor!: string | null;
  @ApiProperty({ type: [String] }) interests!: string[];
  @ApiProperty({ type: [PhotoResponseDto] }) photos!: PhotoResponseDto[];
  @ApiProperty({ ...text, description: 'URL of the primary photo' }) profilePicture!: string | null;
  @ApiProperty({ ...text, enum: SMOKING_VALUES, description: 'null = not said' }) smoking!: SmokingValue | null;
  @ApiProperty({ ...text, enum: DRINKING_VALUES, description: 'null = not said' }) drinking!: DrinkingValue | null;
  @ApiProperty({ ...text, enum: EXERCISE_VALUES, description: 'null = not said' }) exercise!: ExerciseValue | null;
  @ApiProperty({ ...text, enum: PETS_VALUES, description: 'null = not said' }) pets!: PetsValue | null;
}

export class MemberProfileResponseDto extends PublicProfileResponseDto implements MemberProfileDto {
  @ApiProperty({
    ...text,
    example: 'about 10 km',
    description: "Coarse distance between the two members' cities; null when either place is unknown",
  })
  distance!: string | null;
}

export class OwnProfileResponseDto extends PublicProfileResponseDto implements OwnProfileDto {
  @ApiProperty() isVerified!: boolean;
  @ApiProperty() profileCompleted!: boolean;
  @ApiProperty() onboardingCompleted!: boolean;
  @ApiProperty({ type: Boolean, nullable: true, description: 'null without a location; else whether the place was found' })
  locationResolved!: boolean | null;
  @ApiPropertyOptional({ description: 'Why members with a distance limit will not see this member (PUT only)' }) locationNote?: string;
}

export class ProfileCompletionResponseDto implements ProfileCompletionDto {
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 100 }) percentage!: number;
}

/** A place offered for the location field (`GET /api/profile/places`). */
export class PlaceSuggestionResponseDto implements PlaceSuggestionDto {
  @ApiProperty({ example: 'Tromsø' }) name!: string;
  @ApiProperty({ example: 'Norway', description: "The country's English name" }) country!: string;
  @ApiProperty({ example: 'Tromsø, Norway', description: 'The text to store as the location' }) label!: string;
}
