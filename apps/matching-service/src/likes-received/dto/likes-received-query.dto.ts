import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import {
  LIKES_RECEIVED_MAX_LIMIT,
  LIKES_RECEIVED_MAX_OFFSET,
  LIKES_RECEIVED_PAGE_SIZE,
  MatchingMessages,
} from '@mate/contracts';
import { QueryInteger } from '@mate/server-kit';

/** `GET /api/matches/likes-received?limit=&offset=`: one page of the likers. */
export class LikesReceivedQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: LIKES_RECEIVED_MAX_LIMIT,
    default: LIKES_RECEIVED_PAGE_SIZE,
  })
  @IsOptional()
  @QueryInteger({ maxDigits: 9 })
  @Min(1, { message: MatchingMessages.likesReceivedLimit })
  @Max(LIKES_RECEIVED_MAX_LIMIT, { message: MatchingMessages.likesReceivedLimit })
  @IsInt({ message: MatchingMessages.likesReceivedLimit })
  limit: number = LIKES_RECEIVED_PAGE_SIZE;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: LIKES_RECEIVED_MAX_OFFSET, default: 0 })
  @IsOptional()
  @QueryInteger({ maxDigits: 9 })
  @Min(0, { message: MatchingMessages.likesReceivedOffset })
  @Max(LIKES_RECEIVED_MAX_OFFSET, { message: MatchingMessages.likesReceivedOffset })
  @IsInt({ message: MatchingMessages.likesReceivedOffset })
  offset = 0;
}
