import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import {
  PLACE_QUERY_MAX_LENGTH,
  PLACE_SUGGESTIONS_DEFAULT_LIMIT,
  PLACE_SUGGESTIONS_MAX_LIMIT,
  ProfileMessages,
} from '@mate/contracts';
import { QueryInteger } from '@mate/server-kit';

/** `GET /api/profile/places?q=tro&limit=8`: what the member typed so far, and how many places to offer. */
export class PlaceSearchQueryDto {
  @ApiProperty({ minLength: 1, maxLength: PLACE_QUERY_MAX_LENGTH, example: 'Trom' })
  @IsString({ message: ProfileMessages.placeQuery })
  @Length(1, PLACE_QUERY_MAX_LENGTH, { message: ProfileMessages.placeQuery })
  q!: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: PLACE_SUGGESTIONS_MAX_LIMIT,
    default: PLACE_SUGGESTIONS_DEFAULT_LIMIT,
  })
  @QueryInteger({ maxDigits: 6 })
  @Min(1, { message: ProfileMessages.placeLimit })
  @Max(PLACE_SUGGESTIONS_MAX_LIMIT, { message: ProfileMessages.placeLimit })
  @IsInt({ message: ProfileMessages.placeLimit })
  limit: number = PLACE_SUGGESTIONS_DEFAULT_LIMIT;
}
