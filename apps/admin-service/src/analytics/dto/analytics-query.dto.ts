import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ANALYTICS_MAX_DAYS, DEFAULT_ANALYTICS_DAYS } from '@mate/contracts';

export const DAYS_MESSAGE = `days must be a whole number from 1 to ${ANALYTICS_MAX_DAYS}`;
const digits = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value);

/** `?days` of user-growth, engagement, matches and report-trends (spec 001 §9: 7, 30 or 90; default 30). */
export class AnalyticsPeriodQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: ANALYTICS_MAX_DAYS, default: DEFAULT_ANALYTICS_DAYS })
  @IsOptional()
  @Transform(digits)
  @IsInt({ message: DAYS_MESSAGE })
  @Min(1, { message: DAYS_MESSAGE })
  @Max(ANALYTICS_MAX_DAYS, { message: DAYS_MESSAGE })
  days?: number;
}
