import {
  HttpStatus,
  Inject,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import multer from 'multer';
import { finalize, type Observable } from 'rxjs';
import {
  ErrorCode,
  ONBOARDING_PHOTO_MAX_BYTES,
  PROFILE_PHOTO_MAX_BYTES,
  ProfileErrorCode,
  ProfileMessages,
} from '@mate/contracts';
import { AppException, badRequest, principalOf, RateLimits } from '@mate/server-kit';
import { PhotoProcessingQueue } from './photo-processing-queue';
import { PHOTO_UPLOAD_LIMITER, type PhotoUploadRateLimit } from './upload-rate-limits';

/** Field of the multipart body that carries the photo (spec 000 §7). */
export const PHOTO_FIELD = 'photo';

/** Onboarding allows bigger photos and says so in its own words (spec 000 §5). */
export type UploadContext = 'profile' | 'onboarding';

export function uploadContextOf(query: unknown): UploadContext {
  return (query as { context?: unknown } | undefined)?.context === 'onboarding' ? 'onboarding' : 'profile';
}

export const UPLOAD_LIMITS: Record<UploadContext, { maxBytes: number; tooLarge: string; wrongType: string }> =
  {
    profile: {
      maxBytes: PROFILE_PHOTO_MAX_BYTES,
      tooLarge: ProfileMessages.profilePhotoTooLarge,
      wrongType: ProfileMessages.notAnImage,
    },
    onboarding: {
      maxBytes: ONBOARDING_PHOTO_MAX_BYTES,
      tooLarge: ProfileMessages.onboardingPhotoTooLarge,
      wrongType: ProfileMessages.onboardingPhotoType,
    },
  };

export const photoTooLarge = (context: UploadContext) =>
  new AppException(UPLOAD_LIMITS[context].tooLarge, ErrorCode.PayloadTooLarge, HttpStatus.PAYLOAD_TOO_LARGE);

/** A multer failure in the words of the spec; anything but size means "no usable image". */
function uploadError(error: unknown, context: UploadContext): AppException {
  if ((error as { code?: string })?.code === 'LIMIT_FILE_SIZE') return photoTooLarge(context);
  return badRequest(ProfileMessages.notAnImage, ProfileErrorCode.NotAnImage);
}

/** Said to a client that went away before its body was read (it will not hear it). */
export const UPLOAD_ABORTED = 'The upload was interrupted before the photo was received';
const clientGone = () => badRequest(UPLOAD_ABORTED, ProfileErrorCode.UploadAborted);

/**
 * Admits an upload, then reads its multipart body into memory with multer, the size limit chosen
 * per request (`?context=onboarding`: 10 MB, else 5 MB). Multer stops reading a file one byte past
 * the limit (so an exactly-at-limit file passes and the service can still tell "over"), and one
 * file only.
 *
 * Admission comes first, so a refused upload costs neither the body nor any image work: the
 * upload takes a ticket of the processing queue (429 when this member already has
 * PHOTO_UPLOADS_PER_MEMBER_IN_FLIGHT uploads in the process, 503 when the process is full; neither
 * counts against the member's rate), then the member's upload rate is counted (429 with
 * Retry-After past it). The ticket is held through the body read and the image work, and released
 * on every way out, exactly once: refusal, a bad body, a client gone before its body was read
 * (the request's `close`, whenever it comes: during the guard or the Redis checks, or mid-body), an
 * error of the handler, or its answer.
 */
@Injectable()
export class PhotoUploadInterceptor implements NestInterceptor {
  constructor(
    private readonly processing: PhotoProcessingQueue,
    @Inject(PHOTO_UPLOAD_LIMITER) private readonly limits: RateLimits<PhotoUploadRateLimit>,
  ) {}

  async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = ctx.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const context = uploadContextOf(req.query);
    const { userId } = principalOf(ctx);
    const ticket = this.processing.admit(userId);
    // The client may go away at any moment from here on, also while Redis is awaited below and
    // before multer listens to the request; its `close` then has come and gone, multer would wait
    // for it forever, and the ticket would never come back (review round 3). So the ticket is
    // released on `close` unless the body was read through (then the answer's `finalize` does it),
    // the body read is failed with it, and a request already closed never reaches multer.
    // `release()` is idempotent: every way out may call it, the first one counts.
    let failBody: ((error: unknown) => void) | undefined;
    const onClose = () => {
      if (req.readableEnded) return;
      ticket.release();
      failBody?.(clientGone());
    };
    req.once('close', onClose);
    try {
      await this.limits.consume('uploadBurst', userId, ProfileMessages.tooManyUploads);
      await this.limits.consume('uploadHourly', userId, ProfileMessages.tooManyUploads);
      const upload = multer({
        storage: multer.memoryStorage(),
        limits: {
          fileSize: UPLOAD_LIMITS[context].maxBytes + 1,
          files: 1,
          fields: 10,
          parts: 12,
          fieldSize: 10 * 1024,
          headerPairs: 100,
        },
      }).single(PHOTO_FIELD);
      await new Promise<void>((resolve, reject) => {
        // Closed before the listener above was added (during the guard's session lookup) or since;
        // a body already read through (say, JSON read by the body parser) is no abort.
        if (!req.readableEnded && (req.destroyed || req.readableAborted)) return reject(clientGone());
        failBody = reject;
        void upload(req, res, (error?: unknown) => (error ? reject(uploadError(error, context)) : resolve()));
      });
      return next.handle().pipe(finalize(() => ticket.release()));
    } catch (e) {
      ticket.release();
      throw e;
    }
  }
}
