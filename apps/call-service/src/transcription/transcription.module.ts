import { Module } from '@nestjs/common';
import { SERVICE_ENV } from '@mate/server-kit';
import { ActiveCallsLookup } from './active-calls';
import { OpenAiTranscriber } from './openai-transcriber';
import { TRANSCRIBER, type Transcriber } from './transcriber';
import type { TranscriptionEnv } from './transcription.env';
import { TranscriptionController } from './transcription.controller';
import { TranscriptionRateLimiter } from './transcription-rate-limits';
import { TranscriptionUploadInterceptor } from './transcription-upload.interceptor';
import { TranscriptionService } from './transcription.service';

/** The configured adapter: the OpenAI-compatible one with TRANSCRIBE_URL, else none (unavailable). */
export function transcriberOf(env: TranscriptionEnv): Transcriber | null {
  if (!env.TRANSCRIBE_URL) return null;
  return new OpenAiTranscriber({
    baseUrl: env.TRANSCRIBE_URL,
    model: env.TRANSCRIBE_MODEL,
    apiKey: env.TRANSCRIBE_API_KEY,
    language: env.TRANSCRIBE_LANGUAGE,
    timeoutMs: env.TRANSCRIBE_TIMEOUT_MS,
    healthPath: env.TRANSCRIBE_HEALTH_PATH,
  });
}

/** `/api/whisper`: status and transcription of live-subtitle chunks. */
@Module({
  controllers: [TranscriptionController],
  providers: [
    { provide: TRANSCRIBER, useFactory: transcriberOf, inject: [SERVICE_ENV] },
    ActiveCallsLookup,
    TranscriptionService,
    TranscriptionRateLimiter,
    TranscriptionUploadInterceptor,
  ],
  // The event handlers forget a deleted member's counter.
  exports: [TranscriptionService],
})
export class TranscriptionModule {}
