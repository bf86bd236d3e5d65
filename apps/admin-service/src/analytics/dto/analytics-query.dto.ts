import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ANALYTICS_MAX_DAYS, DEFAULT_ANALYTICS_DAYS } from '@mate/contracts';
import { QueryInteger } from '@mate/server-kit';

export const DAYS_MESSAGE = `days must be a whole number from 1 to ${ANALYTICS_MAX_DAYS}`;

/** `?days` of user-growth, engagement, matches and report-trends (spec 001 §9: 7, 30 or 90; default 30). */
export class AnalyticsPeriodQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: ANALYTICS_MAX_DAYS, default: DEFAULT_ANALYTICS_DAYS })
  @IsOptional()
  @QueryInteger({ maxDigits: 6 })
  @IsInt({ message: DAYS_MESSAGE })
  @Min(1, { message: DAYS_MESSAGE })
  @Max(ANALYTICS_MAX_DAYS, { message: DAYS_MESSAGE })
  days?: number;
}
