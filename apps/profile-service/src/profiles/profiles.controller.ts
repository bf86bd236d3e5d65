import { Body, Controller, Get, HttpCode, HttpStatus, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { AuthPrincipal, ProfileDto } from '@mate/contracts';
import { CurrentUser } from '@mate/server-kit';
import { CompleteOnboardingDto } from './dto/complete-onboarding.dto';
import { ProfilesService } from './profiles.service';

/** The member's own profile. Every route needs a live session (global guard). */
@Controller('api/profile')
export class ProfilesController {
  constructor(private readonly profiles: ProfilesService) {}

  /** Clients add a timestamp parameter (`?t=…`) against caches; it is ignored, and nothing is stored. */
  @Get('me')
  me(@CurrentUser() user: AuthPrincipal, @Res({ passthrough: true }) res: Response): Promise<ProfileDto> {
    res.setHeader('Cache-Control', 'no-store');
    return this.profiles.getOwnProfile(user.userId);
  }

  @Post('me/complete-onboarding')
  @HttpCode(HttpStatus.OK)
  completeOnboarding(
    @CurrentUser() user: AuthPrincipal,
    @Body() _body: CompleteOnboardingDto,
  ): Promise<ProfileDto> {
    return this.profiles.completeOnboarding(user.userId);
  }
}
