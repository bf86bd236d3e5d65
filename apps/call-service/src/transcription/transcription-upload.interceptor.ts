import {
  Inject,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import multer from 'multer';
import type { Observable } from 'rxjs';
import { CallErrorCode, CallMessages } from '@mate/contracts';
import { badRequest, principalOf, SERVICE_ENV } from '@mate/server-kit';
import type { TranscriptionEnv } from './transcription.env';
import { audioTooLarge, TranscriptionService } from './transcription.service';

/** Field of the multipart body that carries the chunk (issue 11). */
export const AUDIO_FIELD = 'audio';

/**
 * Admits a chunk before its body is read (answered call, backend: TranscriptionService.admit; the
 * guard counted the member's rate before),
 * then reads one file of at most TRANSCRIBE_MAX_BYTES into memory (multer stops one byte past it,
 * so the limit itself passes). Nothing is written to disk.
 */
@Injectable()
export class TranscriptionUploadInterceptor implements NestInterceptor {
  constructor(
    private readonly transcription: TranscriptionService,
    @Inject(SERVICE_ENV) private readonly env: TranscriptionEnv,
  ) {}

  async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = ctx.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    await this.transcription.admit(principalOf(ctx).userId);
    const upload = multer({
      storage: multer.memoryStorage(),
      limits: {
        fileSize: this.env.TRANSCRIBE_MAX_BYTES + 1,
        files: 1,
        fields: 5,
        parts: 6,
        fieldSize: 1024,
        headerPairs: 50,
      },
    }).single(AUDIO_FIELD);
    await new Promise<void>((resolve, reject) => {
      void upload(req, res, (error?: unknown) => {
        if (!error) return resolve();
        reject(
          (error as { code?: string }).code === 'LIMIT_FILE_SIZE'
            ? audioTooLarge()
            : badRequest(CallMessages.audioRequired, CallErrorCode.AudioRequired),
        );
      });
    });
    return next.handle();
  }
}
