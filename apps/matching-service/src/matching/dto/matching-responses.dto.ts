import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type {
  LikeResultDto,
  MatchDto,
  MatchStatsDto,
  PassResultDto,
  PhotoDto,
  RewindResultDto,
  SuggestionDto,
  SuggestionUserDto,
} from '@mate/contracts';

/** Response shapes for the OpenAPI document; the contracts' interfaces keep them honest. */
export class SuggestionUserResponseDto implements SuggestionUserDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) age!: number | null;
  @ApiProperty({ type: String, nullable: true }) bio!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'As the member wrote it ("City, Country")' })
  location!: string | null;
  @ApiProperty({ type: String, nullable: true }) occupation!: string | null;
  @ApiProperty({ type: [String] }) interests!: string[];
  @ApiProperty({ type: String, nullable: true }) profilePicture!: string | null;
}

export class CardPhotoResponseDto implements PhotoDto {
  @ApiProperty() id!: string;
  @ApiProperty() url!: string;
  @ApiProperty() isPrimary!: boolean;
  @ApiProperty({ type: 'integer' }) order!: number;
}

export class SuggestionResponseDto implements SuggestionDto {
  @ApiProperty({ type: SuggestionUserResponseDto }) user!: SuggestionUserResponseDto;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 100,
    description: "Reciprocal match score, shown as 'N% Match'",
  })
  score!: number;
  @ApiProperty({ type: [CardPhotoResponseDto], description: 'The card photos, the primary first' })
  photos!: CardPhotoResponseDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'about 10 km',
    description:
      "Coarse distance between city centres ('in your city', 'about N km'); null when either place is unknown",
  })
  distance!: string | null;
}

export class LikeResultResponseDto implements LikeResultDto {
  @ApiProperty() matched!: boolean;
  @ApiPropertyOptional({ format: 'uuid', description: 'The match, when `matched`' }) matchId?: string;
}

export class PassResultResponseDto implements PassResultDto {
  @ApiProperty({ enum: [true] }) passed!: true;
}

export class RewindResultResponseDto implements RewindResultDto {
  @ApiProperty({ type: SuggestionResponseDto }) suggestion!: SuggestionResponseDto;
}

export class MatchResponseDto implements MatchDto {
  @ApiProperty({ format: 'uuid' }) matchId!: string;
  @ApiProperty({ format: 'uuid', description: 'The other member' }) userId!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Primary photo' }) profilePicture!: string | null;
  @ApiProperty({ format: 'date-time' }) matchedAt!: string;
}

export class MatchStatsResponseDto implements MatchStatsDto {
  @ApiProperty({ type: 'integer' }) matches!: number;
  @ApiProperty({ type: 'integer' }) likesReceived!: number;
  @ApiProperty({ type: 'integer' }) likesSent!: number;
}
