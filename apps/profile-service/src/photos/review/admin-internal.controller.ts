import { Controller, Get, Param, ParseUUIDPipe, Query, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import {
  ProfileErrorCode,
  ProfileMessages,
  type AdminPhotoPart,
  type AdminProfilePart,
  type AdminProfileSummaryPart,
  type PendingPhotosPart,
} from '@mate/contracts';
import { badRequest, InternalCallerGuard, MemberIdPipe, notFound, Public, UnavailableInterceptor } from '@mate/server-kit';
import { ADMIN_PROFILE_IDS_MAX, PhotoReviewService } from './photo-review.service';

/** A photo id that is not a UUID names no photo. */
const PHOTO_NOT_FOUND = () => notFound(ProfileMessages.photoNotFound, ProfileErrorCode.PhotoNotFound);

/** `?ids=a,b`: at most ADMIN_PROFILE_IDS_MAX UUIDs (lower-cased, each once); anything else is 400. */
export function parseIds(value: unknown): string[] {
  if (value === undefined || value === '') return [];
  if (typeof value !== 'string') throw badRequest('ids must be a comma-separated list of UUIDs');
  const ids = value.split(',').map((s) => s.trim().toLowerCase());
  if (ids.some((id) => !isUUID(id))) throw badRequest('ids must be a comma-separated list of UUIDs');
  const unique = [...new Set(ids)];
  if (unique.length > ADMIN_PROFILE_IDS_MAX) throw badRequest(`ids takes at most ${ADMIN_PROFILE_IDS_MAX} UUIDs`);
  return unique;
}

/**
 * What admin-service reads of profiles and photos (`INTERNAL_ADMIN_PATHS`, issue 13): service to
 * service only (the internal credential; admin-service checks the admin's role). Not in the API
 * documents.
 */
@ApiExcludeController()
@UseGuards(InternalCallerGuard)
@UseInterceptors(UnavailableInterceptor)
@Controller('internal/admin')
export class AdminInternalController {
  constructor(private readonly review: PhotoReviewService) {}

  @Get('profiles')
  @Public()
  profiles(@Query() query: Record<string, unknown>): Promise<AdminProfileSummaryPart[]> {
    const unknown = Object.keys(query).filter((k) => k !== 'ids');
    if (unknown.length) throw badRequest(`property ${unknown[0]} should not exist`);
    return this.review.profileSummaries(parseIds(query.ids));
  }

  @Get('profiles/:userId')
  @Public()
  async profile(@Param('userId', MemberIdPipe) userId: string): Promise<AdminProfilePart> {
    const profile = await this.review.profile(userId);
    if (!profile) throw notFound(ProfileMessages.profileNotFound, ProfileErrorCode.ProfileNotFound);
    return profile;
  }

  @Get('photos/pending')
  @Public()
  pendingPhotos(): Promise<PendingPhotosPart> {
    return this.review.pendingPhotos();
  }

  @Get('photos/:photoId')
  @Public()
  async photo(
    @Param('photoId', new ParseUUIDPipe({ exceptionFactory: PHOTO_NOT_FOUND }))
    photoId: string,
  ): Promise<AdminPhotoPart> {
    const photo = await this.review.photo(photoId.toLowerCase());
    if (!photo) throw notFound(ProfileMessages.photoNotFound, ProfileErrorCode.PhotoNotFound);
    return photo;
  }
}
