import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import {
  LIKES_RECEIVED_MAX_LIMIT,
  LIKES_RECEIVED_MAX_OFFSET,
  LIKES_RECEIVED_PAGE_SIZE,
  MatchingMessages,
} from '@mate/contracts';

// Query values arrive as text: digits become a number, anything else stays text and fails IsInt.
const wholeNumber = () =>
  Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value));

/** `GET /api/matches/likes-received?limit=&offset=`: one page of the likers. */
export class LikesReceivedQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: LIKES_RECEIVED_MAX_LIMIT,
    default: LIKES_RECEIVED_PAGE_SIZE,
  })
  @IsOptional()
  @wholeNumber()
  @Min(1, { message: MatchingMessages.likesReceivedLimit })
  @Max(LIKES_RECEIVED_MAX_LIMIT, { message: MatchingMessages.likesReceivedLimit })
  @IsInt({ message: MatchingMessages.likesReceivedLimit })
  limit: number = LIKES_RECEIVED_PAGE_SIZE;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: LIKES_RECEIVED_MAX_OFFSET, default: 0 })
  @IsOptional()
  @wholeNumber()
  @Min(0, { message: MatchingMessages.likesReceivedOffset })
  @Max(LIKES_RECEIVED_MAX_OFFSET, { message: MatchingMessages.likesReceivedOffset })
  @IsInt({ message: MatchingMessages.likesReceivedOffset })
  offset = 0;
}
