import { Body, Controller, Get, Put } from '@nestjs/common';
import type { AuthPrincipal, FilterPreferencesDto, PreferencesDto } from '@mate/contracts';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors, CurrentUser } from '@mate/server-kit';
import { FilterPreferencesResponseDto, PreferencesResponseDto } from './dto/preferences-responses.dto';
import { UpdateFilterPreferencesDto, UpdatePreferencesDto } from './dto/preferences.dto';
import { PreferencesService } from './preferences.service';

/** Match preferences (spec 000 §3). Every route needs a live session. */
@ApiTags('preferences')
@Controller('api/preferences')
export class PreferencesController {
  constructor(private readonly preferences: PreferencesService) {}

  @Get('me')
  @ApiOkResponse({ type: PreferencesResponseDto })
  get(@CurrentUser() user: AuthPrincipal): Promise<PreferencesDto> {
    return this.preferences.getMatchPreferences(user.userId);
  }

  @Put('me')
  @ApiOkResponse({ type: PreferencesResponseDto })
  @ApiErrors(400)
  update(@CurrentUser() user: AuthPrincipal, @Body() body: UpdatePreferencesDto): Promise<PreferencesDto> {
    return this.preferences.updateMatchPreferences(user.userId, body);
  }
}

/** Filter preferences (spec 001 §3), sharing ages, distance and genders with the match preferences. */
@ApiTags('preferences')
@Controller('api/profile/me/preferences')
export class FilterPreferencesController {
  constructor(private readonly preferences: PreferencesService) {}

  @Get()
  @ApiOkResponse({ type: FilterPreferencesResponseDto })
  get(@CurrentUser() user: AuthPrincipal): Promise<FilterPreferencesDto> {
    return this.preferences.getFilterPreferences(user.userId);
  }

  @Put()
  @ApiOkResponse({ type: FilterPreferencesResponseDto })
  @ApiErrors(400)
  update(
    @CurrentUser() user: AuthPrincipal,
    @Body() body: UpdateFilterPreferencesDto,
  ): Promise<FilterPreferencesDto> {
    return this.preferences.updateFilterPreferences(user.userId, body);
  }
}
