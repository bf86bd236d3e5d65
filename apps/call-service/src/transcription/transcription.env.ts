import { IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength } from 'class-validator';
import { TRANSCRIBE_MAX_BYTES } from '@mate/contracts';
import { BlankAsUnset, EnvNumber, Secret } from '@mate/server-kit';
import { IceEnv } from '../ice/ice.env';

/**
 * Live subtitles (`/api/whisper`): a server speaking the OpenAI-compatible transcription API
 * (`POST /v1/audio/transcriptions`: OpenAI, a whisper.cpp server, faster-whisper servers). Without
 * TRANSCRIBE_URL transcription is unavailable and the call screen shows no subtitles.
 */
export class TranscriptionEnv extends IceEnv {
  /** Base URL of the backend, without `/v1`: `https://api.openai.com`, `http://whisper:8080`. */
  @BlankAsUnset()
  @IsOptional()
  @IsUrl(
    { require_tld: false, protocols: ['http', 'https'], require_protocol: true },
    { message: 'TRANSCRIBE_URL must be an http(s) URL' },
  )
  TRANSCRIBE_URL?: string;

  /** Model name sent with every request (OpenAI: whisper-1; servers of local models take theirs). */
  @IsString()
  @MinLength(1)
  TRANSCRIBE_MODEL = 'whisper-1';

  /** Bearer token of the backend (OpenAI's API key); none for a local server. */
  @Secret()
  @BlankAsUnset()
  @IsOptional()
  @IsString()
  TRANSCRIBE_API_KEY?: string;

  /** Spoken language hint (ISO 639-1, e.g. `en`); none lets the backend detect it. */
  @BlankAsUnset()
  @IsOptional()
  @Matches(/^[a-z]{2,3}$/, { message: 'TRANSCRIBE_LANGUAGE must be an ISO 639-1 code such as en' })
  TRANSCRIBE_LANGUAGE?: string;

  /** How long one transcription may take before the member is told it is unavailable. */
  @EnvNumber()
  @IsInt()
  @Min(100)
  @Max(120_000)
  TRANSCRIBE_TIMEOUT_MS = 15_000;

  /**
   * The path whose 2xx answer means the backend is up (`/v1/models` for OpenAI and
   * faster-whisper servers; `/` for a whisper.cpp server, which lists no models).
   */
  @Matches(/^\/[^\s]*$/, { message: 'TRANSCRIBE_HEALTH_PATH must be a path starting with /' })
  TRANSCRIBE_HEALTH_PATH = '/v1/models';

  /** How long a health check's answer is believed. */
  @EnvNumber()
  @IsInt()
  @Min(100)
  TRANSCRIBE_HEALTH_TTL_MS = 30_000;

  /** Largest audio chunk accepted (bytes). */
  @EnvNumber()
  @IsInt()
  @Min(1024)
  @Max(25 * 1024 * 1024)
  TRANSCRIBE_MAX_BYTES = TRANSCRIBE_MAX_BYTES;

  /** Chunks one member may send a minute, across replicas (3-second chunks: 20 a minute). */
  @EnvNumber()
  @IsInt()
  @Min(1)
  TRANSCRIBE_PER_MINUTE = 40;
}
