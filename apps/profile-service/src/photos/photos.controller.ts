import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  ParseUUIDPipe,
  Post,
  Put,
  Query,
  Req,
  Res,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import {
  PHOTO_SIZES,
  ProfileErrorCode,
  ProfileMessages,
  type AuthPrincipal,
  type PhotoDto,
  type PhotoSize,
  type PhotoUploadResponse,
} from '@mate/contracts';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors, CurrentUser, notFound, Public } from '@mate/server-kit';
import { AttachPhotoDto, ReorderPhotosDto } from './dto/photo.dto';
import { PhotoResponseDto, PhotoUploadResponseDto } from './dto/photo-responses.dto';
import { PhotoUploadInterceptor, uploadContextOf } from './photo-upload.interceptor';
import { PHOTO_CONTENT_TYPE } from './image-processor';
import { PHOTO_FILE_CACHE_CONTROL } from './storage/photo-storage';
import { PhotosService, type UploadedPhotoFile } from './photos.service';

const photoId = () =>
  new ParseUUIDPipe({ exceptionFactory: () => notFound(ProfileMessages.photoNotFound, ProfileErrorCode.PhotoNotFound) });

/**
 * The member's own photos, under both paths the clients use (`/api/photos/…` and
 * `/api/profile/me/photos/…`, spec 000 §7). Every route needs a live session.
 */
@ApiTags('photos')
@Controller(['api/photos', 'api/profile/me/photos'])
export class PhotosController {
  constructor(private readonly photos: PhotosService) {}

  @Get()
  @ApiOkResponse({ type: [PhotoResponseDto] })
  list(@CurrentUser() user: AuthPrincipal): Promise<PhotoDto[]> {
    return this.photos.list(user.userId);
  }

  /**
   * Multipart, field `photo`; `?context=onboarding` allows 10 MB instead of 5 MB. At most 10 uploads
   * a minute and 20 an hour per member, and 2 in flight at once (429); 503 while this process holds
   * as many uploads as it may. Both refusals come before the body is read.
   */
  @Post('upload')
  @UseInterceptors(PhotoUploadInterceptor)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['photo'], properties: { photo: { type: 'string', format: 'binary' } } } })
  @ApiQuery({ name: 'context', required: false, enum: ['onboarding'], description: 'onboarding allows 10 MB instead of 5 MB' })
  @ApiCreatedResponse({ type: PhotoUploadResponseDto })
  @ApiErrors(400, 404, 413, 429, 503)
  upload(
    @CurrentUser() user: AuthPrincipal,
    @UploadedFile() file: UploadedPhotoFile | undefined,
    @Query() query: Record<string, unknown>,
  ): Promise<PhotoUploadResponse> {
    return this.photos.upload(user.userId, file, uploadContextOf(query));
  }

  @Put('reorder')
  @ApiOkResponse({ type: [PhotoResponseDto] })
  @ApiErrors(400)
  reorder(@CurrentUser() user: AuthPrincipal, @Body() body: ReorderPhotosDto): Promise<PhotoDto[]> {
    return this.photos.reorder(user.userId, body.photoOrders);
  }

  @Put(':id/primary')
  @ApiOkResponse({ type: [PhotoResponseDto] })
  @ApiErrors(404)
  makePrimary(@CurrentUser() user: AuthPrincipal, @Param('id', photoId()) id: string): Promise<PhotoDto[]> {
    return this.photos.makePrimary(user.userId, id);
  }

  @Delete(':id')
  @ApiOkResponse({ type: [PhotoResponseDto], description: 'The photos left' })
  @ApiErrors(404)
  remove(@CurrentUser() user: AuthPrincipal, @Param('id', photoId()) id: string): Promise<PhotoDto[]> {
    return this.photos.remove(user.userId, id);
  }
}

/** POST /api/profile/me/photos: attach (or make primary) a photo already uploaded to Mate. */
@ApiTags('photos')
@Controller('api/profile/me/photos')
export class ProfilePhotosController {
  constructor(private readonly photos: PhotosService) {}

  @Post()
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: PhotoResponseDto })
  @ApiErrors(400, 404)
  attach(@CurrentUser() user: AuthPrincipal, @Body() body: AttachPhotoDto): Promise<PhotoDto> {
    return this.photos.attach(user.userId, body.url, body.isPrimary);
  }
}

const FILE_NAME = new RegExp(`^(${Object.keys(PHOTO_SIZES).join('|')})\\.webp$`);

/**
 * The photo files. Public: `<img>` tags cannot send a bearer token, and photo ids are random
 * UUIDs. A file never changes (a new photo gets a new id), but a deleted or rejected one must
 * stop being shown, so caches keep it for minutes and then revalidate (ETag, 304) (ADR 0003).
 */
@ApiTags('photos')
@Controller('api/photos/files')
export class PhotoFilesController {
  constructor(private readonly photos: PhotosService) {}

  @Public()
  @Get(':photoId/:file')
  @ApiProduces(PHOTO_CONTENT_TYPE)
  @ApiOkResponse({ description: 'The image; cacheable for five minutes, then revalidated', schema: { type: 'string', format: 'binary' } })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match names the current file)' })
  @ApiErrors(404)
  async file(
    @Param('photoId', photoId()) id: string,
    @Param('file') fileName: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const size = FILE_NAME.exec(fileName)?.[1] as PhotoSize | undefined;
    const file = size ? await this.photos.findFile(id, size) : null;
    if (!file) {
      // No cache keeps a 404 either: what this URL answers is decided here, on every request.
      res.setHeader('Cache-Control', 'no-store');
      throw notFound(ProfileMessages.photoNotFound, ProfileErrorCode.PhotoNotFound);
    }
    res.setHeader('Cache-Control', PHOTO_FILE_CACHE_CONTROL);
    res.setHeader('ETag', file.etag);
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (req.fresh) {
      res.status(HttpStatus.NOT_MODIFIED).end();
      return;
    }
    const stream = await file.open();
    if (!stream) {
      res.setHeader('Cache-Control', 'no-store');
      res.removeHeader('ETag');
      throw notFound(ProfileMessages.photoNotFound, ProfileErrorCode.PhotoNotFound);
    }
    res.setHeader('Content-Type', PHOTO_CONTENT_TYPE);
    await pipeline(stream, res).catch(() => res.destroy());
  }
}
