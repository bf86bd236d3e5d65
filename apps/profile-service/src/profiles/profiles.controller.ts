import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  ParseUUIDPipe,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import type { Response } from 'express';
import {
  ProfileErrorCode,
  type AuthPrincipal,
  type MemberProfileDto,
  type OwnProfileDto,
  type PlaceSuggestionDto,
  type ProfileCompletionDto,
} from '@mate/contracts';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AllowUnverified, ApiErrors, CurrentUser, notFound } from '@mate/server-kit';
import { CompleteOnboardingDto } from './dto/complete-onboarding.dto';
import { UpdateProfileDto } from './dto/update-profile.dto';
import { PlaceSearchQueryDto } from './dto/place-search-query.dto';
import {
  MemberProfileResponseDto,
  OwnProfileResponseDto,
  PlaceSuggestionResponseDto,
  ProfileCompletionResponseDto,
} from './dto/profile-responses.dto';
import { PROFILE_NOT_FOUND, ProfilesService } from './profiles.service';

/** A user id that is not a UUID names no profile. */
const PROFILE_NOT_FOUND_ANSWER = () => notFound(PROFILE_NOT_FOUND, ProfileErrorCode.ProfileNotFound);

/**
 * Profiles. Every route needs a live session (global guard). The `me` routes are declared before
 * `:userId`, and `:userId` only takes a UUID, so `/api/profile/me…` never reads as a member id.
 */
@ApiTags('profile')
@Controller('api/profile')
export class ProfilesController {
  constructor(private readonly profiles: ProfilesService) {}

  /**
   * Clients add a timestamp parameter (`?t=…`) against caches; it is ignored, and nothing is stored.
   * Open to an unverified member: it is how the web app's gating and verify-email prompt learn
   * that the profile is not verified yet (spec 000 §2). Every other profile route refuses them.
   */
  @AllowUnverified()
  @Get('me')
  @ApiOkResponse({ type: OwnProfileResponseDto })
  @ApiErrors(404)
  me(@CurrentUser() user: AuthPrincipal, @Res({ passthrough: true }) res: Response): Promise<OwnProfileDto> {
    res.setHeader('Cache-Control', 'no-store');
    return this.profiles.getOwnProfile(user.userId);
  }

  @Put('me')
  @ApiOkResponse({ type: OwnProfileResponseDto })
  @ApiErrors(400, 404)
  update(@CurrentUser() user: AuthPrincipal, @Body() body: UpdateProfileDto): Promise<OwnProfileDto> {
    return this.profiles.updateProfile(user.userId, body);
  }

  @Get('me/completion')
  @ApiOkResponse({ type: ProfileCompletionResponseDto })
  @ApiErrors(404)
  completion(@CurrentUser() user: AuthPrincipal): Promise<ProfileCompletionDto> {
    return this.profiles.completion(user.userId);
  }

  @Post('me/complete-onboarding')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: OwnProfileResponseDto, description: 'No body (or `{}`) skips onboarding' })
  @ApiErrors(400, 404)
  completeOnboarding(
    @CurrentUser() user: AuthPrincipal,
    @Body() body: CompleteOnboardingDto,
  ): Promise<OwnProfileDto> {
    return this.profiles.completeOnboarding(user.userId, body);
  }

  /**
   * Places whose name starts with `q` (folded like geocoding), for the location field's list: the
   * place list stays on the server, the phone downloads only a few matches per keystroke pause.
   * Declared before `:userId` so "places" is never read as a member id.
   */
  @Get('places')
  @ApiOkResponse({ type: [PlaceSuggestionResponseDto] })
  @ApiErrors(400)
  places(@Query() query: PlaceSearchQueryDto): Promise<PlaceSuggestionDto[]> {
    return this.profiles.searchPlaces(query.q, query.limit);
  }

  /**
   * Another member's profile as members may see it (no email, coordinates or hidden state) with the
   * coarse distance between the two; 404 between two members of whom either blocks the other, as
   * for an unknown member.
   */
  @Get(':userId')
  @ApiOkResponse({ type: MemberProfileResponseDto })
  @ApiErrors(404)
  other(
    @CurrentUser() user: AuthPrincipal,
    @Param('userId', new ParseUUIDPipe({ exceptionFactory: PROFILE_NOT_FOUND_ANSWER }))
    userId: string,
  ): Promise<MemberProfileDto> {
    return this.profiles.getPublicProfile(user.userId, userId);
  }
}
