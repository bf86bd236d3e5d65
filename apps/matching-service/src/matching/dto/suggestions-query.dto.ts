import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { SUGGESTIONS_MAX_LIMIT, SUGGESTIONS_PAGE_SIZE } from '@mate/contracts';
import { QueryInteger } from '@mate/server-kit';

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${SUGGESTIONS_MAX_LIMIT}`;

/** `GET /api/matches/suggestions?limit=N`: how many suggestions to answer (spec 000 §9: 20 per load). */
export class SuggestionsQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: SUGGESTIONS_MAX_LIMIT,
    default: SUGGESTIONS_PAGE_SIZE,
  })
  @IsOptional()
  @QueryInteger({ maxDigits: 6 })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(SUGGESTIONS_MAX_LIMIT, { message: LIMIT_MESSAGE })
  @IsInt({ message: LIMIT_MESSAGE })
  limit: number = SUGGESTIONS_PAGE_SIZE;
}
