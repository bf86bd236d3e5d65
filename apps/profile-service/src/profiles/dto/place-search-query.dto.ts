import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import {
  PLACE_QUERY_MAX_LENGTH,
  PLACE_SUGGESTIONS_DEFAULT_LIMIT,
  PLACE_SUGGESTIONS_MAX_LIMIT,
  ProfileMessages,
} from '@mate/contracts';

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
  // Query values arrive as text: digits become a number, anything else stays text and fails IsInt.
  @Transform(({ value }) => (typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value))
  @Min(1, { message: ProfileMessages.placeLimit })
  @Max(PLACE_SUGGESTIONS_MAX_LIMIT, { message: ProfileMessages.placeLimit })
  @IsInt({ message: ProfileMessages.placeLimit })
  limit: number = PLACE_SUGGESTIONS_DEFAULT_LIMIT;
}
