import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { FilterPreferencesDto, PreferencesDto } from '@mate/contracts';

/** Response shapes for the OpenAPI document; the contracts' interfaces keep them honest. */
export class PreferencesResponseDto implements PreferencesDto {
  @ApiProperty({ type: 'integer' }) minAge!: number;
  @ApiProperty({ type: 'integer' }) maxAge!: number;
  @ApiProperty({ type: 'integer', description: 'Kilometres' }) maxDistance!: number;
  @ApiProperty({ type: [String] }) genderPreference!: string[];
  @ApiProperty({ type: [String] }) interests!: string[];
  @ApiProperty({ type: [String] }) dealbreakers!: string[];
}

export class FilterPreferencesResponseDto implements FilterPreferencesDto {
  @ApiProperty({ type: 'integer' }) minAge!: number;
  @ApiProperty({ type: 'integer' }) maxAge!: number;
  @ApiProperty({ type: 'integer', description: 'Kilometres' }) maxDistance!: number;
  @ApiPropertyOptional({ type: 'integer', nullable: true }) minHeight?: number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true }) maxHeight?: number | null;
  @ApiProperty({ type: [String] }) genderPreference!: string[];
  @ApiProperty({ type: [String] }) educationPreference!: string[];
  @ApiProperty({ type: [String] }) relationshipGoalPreference!: string[];
  @ApiProperty({ type: [String] }) smokingPreference!: string[];
  @ApiProperty({ type: [String] }) drinkingPreference!: string[];
  @ApiProperty({ type: [String] }) exercisePreference!: string[];
  @ApiProperty({ type: [String] }) petsPreference!: string[];
  @ApiProperty({ type: [String] }) requiredInterests!: string[];
}
