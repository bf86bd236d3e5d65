import { ApiProperty } from '@nestjs/swagger';
import type {
  AnalyticsOverviewDto,
  EngagementDto,
  MatchAnalyticsDto,
  ReportTrendRowDto,
  RetentionDto,
  SafetyAnalyticsDto,
  UserGrowthRowDto,
} from '@mate/contracts';

/*
 * The analytics answers in the API documents. Definitions in full: README "Analytics". "The
 * period" is the `days` UTC days ending today; rates are fractions from 0 to 1.
 */

const integer = (description: string) => ApiProperty({ type: 'integer', description });
const fraction = (description: string) => ApiProperty({ type: 'number', minimum: 0, maximum: 1, description });
const TOTAL_MATCHES =
  "The matches ever made, each match once, ended ones and deleted members' included (README \"What a match is\"): the statistics' matches.total";

export class AnalyticsOverviewResponseDto implements AnalyticsOverviewDto {
  @integer('Members now (deleted accounts left out)') totalUsers!: number;
  @integer('Members who signed up in the last 7 days') newUsers7d!: number;
  @integer('Members active in the last 30 days') activeUsers30d!: number;
  @integer(TOTAL_MATCHES) totalMatches!: number;
  @integer('Messages ever sent') totalMessages!: number;
  @integer('Reports not resolved') pendingReports!: number;
  @fraction('Members who completed onboarding (not skipped), over members') onboardingCompletionRate!: number;
  @fraction('Members who uploaded a photo, over members') profileCompletionRate!: number;
}

export class UserGrowthRowResponseDto implements UserGrowthRowDto {
  @ApiProperty({ example: '2026-03-31', description: 'The UTC day' }) date!: string;
  @integer('Members at the end of the day') totalUsers!: number;
  @integer('Members who signed up that day') newUsers!: number;
}

export class EngagementResponseDto implements EngagementDto {
  @integer('Members active today') dau!: number;
  @integer('Members active in the last 7 days') wau!: number;
  @integer('Members active in the last 30 days') mau!: number;
  @ApiProperty({ description: 'Messages sent in the period over matches made in it' }) avgMessagesPerMatch!: number;
  @fraction('Conversations begun in the period whose first message was answered') messageResponseRate!: number;
  @ApiProperty({ description: 'Likes and passes in the period per member active in it per day' }) swipeRate!: number;
}

export class MatchAnalyticsResponseDto implements MatchAnalyticsDto {
  @fraction('Mutual likes over likes in the period: matchesInPeriod / likesInPeriod') matchSuccessRate!: number;
  @integer('Likes ever made') totalLikes!: number;
  @integer(TOTAL_MATCHES) totalMatches!: number;
  @integer('Likes made in the period') likesInPeriod!: number;
  @integer('Matches made in the period ("matches over the period")') matchesInPeriod!: number;
  @ApiProperty({ description: 'Matches made in the period per member active in it (a match counts for both members)' })
  avgMatchesPerUser!: number;
  @integer('Matches made in the last 7 days, whatever the period') newMatches7d!: number;
  @integer('Matches made in the last 30 days, whatever the period (the period’s count is matchesInPeriod)') newMatches30d!: number;
}

export class RetentionResponseDto implements RetentionDto {
  @fraction('Of the members of the last 90 days’ signup cohorts, the share active on their day 1') d1Retention!: number;
  @fraction('The same on day 7') d7Retention!: number;
  @fraction('The same on day 30') d30Retention!: number;
  @fraction('Of the members active 59 to 30 days ago, the share not active in the last 30 days') churnRate!: number;
}

export class SafetyAnalyticsResponseDto implements SafetyAnalyticsDto {
  @integer('Reports not resolved') pendingReports!: number;
  @integer('Reports resolved') resolvedReports!: number;
  @integer('Reports ever made') totalReports!: number;
  @ApiProperty({ description: 'Hours from a report to its resolution, averaged over resolved reports' }) avgResolutionTime!: number;
  @integer('Blocks ever made') totalBlocks!: number;
  @integer('Members suspended now') totalSuspensions!: number;
}

export class ReportTrendRowResponseDto implements ReportTrendRowDto {
  @ApiProperty({ example: '2026-03-31', description: 'The UTC day' }) date!: string;
  @ApiProperty({ example: 'harassment' }) reason!: string;
  @integer('Reports made that day for that reason') count!: number;
}
