import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { CallErrorCode, CallMessages, ErrorCode, SUBTITLE_MAX_LENGTH, type TranscriptionDto } from '@mate/contracts';
import {
  AppException,
  badRequest,
  CLOCK,
  forbidden,
  LOGGER,
  SERVICE_ENV,
  serviceUnavailable,
  type Clock,
} from '@mate/server-kit';
import { ActiveCallsLookup } from './active-calls';
import { TRANSCRIBER, TranscriberError, type Transcriber } from './transcriber';
import { TranscriptionRateLimiter } from './transcription-rate-limits';
import type { TranscriptionEnv } from './transcription.env';

/** The audio as the upload handed it over (multer's memory storage). */
export interface UploadedAudio {
  buffer: Buffer;
  mimetype: string;
  size: number;
}

/** EBML's magic number: every Matroska/WebM file starts with it. */
const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
/** MediaRecorder's types for webm (`audio/webm;codecs=opus`); the bytes decide, the type must agree. */
const WEBM_TYPES = new Set(['audio/webm', 'video/webm']);

/** A standalone webm chunk: EBML header whose DocType is `webm`, with a webm content type. */
export function isWebm(audio: Buffer, mimetype: string): boolean {
  const type = mimetype.split(';')[0].trim().toLowerCase();
  if (!WEBM_TYPES.has(type)) return false;
  if (audio.length < 8 || !audio.subarray(0, 4).equals(EBML_MAGIC)) return false;
  // The DocType element (id 0x4282) sits in the EBML header, within its first few dozen bytes.
  const head = audio.subarray(0, 64);
  const docType = head.indexOf(Buffer.from([0x42, 0x82]));
  return docType > 0 && head.indexOf(Buffer.from('webm', 'latin1'), docType) > docType;
}

/** What the backend said, fit to be relayed as a subtitle: no control characters, one line, bounded. */
export function subtitleText(raw: string): string {
  const oneLine = raw
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return Array.from(oneLine).slice(0, SUBTITLE_MAX_LENGTH).join('');
}

export const audioTooLarge = () =>
  new AppException(CallMessages.audioTooLarge, ErrorCode.PayloadTooLarge, HttpStatus.PAYLOAD_TOO_LARGE);
const unavailable = (cause?: unknown) => serviceUnavailable(cause, CallMessages.transcriptionUnavailable);

/**
 * Live subtitles: whether transcription is available (the configured backend answered its health
 * check within TRANSCRIBE_HEALTH_TTL_MS), and one member's chunk turned into text. The audio lives
 * in memory for the one request: it is never stored, and never logged (nor is the text).
 */
@Injectable()
export class TranscriptionService {
  private health?: { available: boolean; checkedAt: number };
  private checking?: Promise<boolean>;

  constructor(
    @Inject(TRANSCRIBER) private readonly transcriber: Transcriber | null,
    @Inject(SERVICE_ENV) private readonly env: TranscriptionEnv,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly activeCalls: ActiveCallsLookup,
    private readonly limits: TranscriptionRateLimiter,
  ) {}

  /** False without a backend, or while it fails its health check (checked at most every TTL, one check at a time). */
  async available(): Promise<boolean> {
    if (!this.transcriber) return false;
    const now = this.clock.now().getTime();
    if (this.health && now - this.health.checkedAt < this.env.TRANSCRIBE_HEALTH_TTL_MS)
      return this.health.available;
    this.checking ??= this.transcriber
      .healthy()
      .catch(() => false)
      .then((available) => {
        if (!available) this.logger.warn('transcription backend failed its health check');
        this.health = { available, checkedAt: this.clock.now().getTime() };
        return available;
      })
      .finally(() => {
        this.checking = undefined;
      });
    return this.checking;
  }

  /**
   * Before the body is read, and after the member's rate (429, counted by the kit's guard:
   * TranscriptionRateLimiter): an answered call (403), a backend (503).
   */
  async admit(userId: string): Promise<void> {
    if (!(await this.activeCalls.activeAnsweredCallOf(userId))) {
      throw forbidden(CallMessages.noActiveCall, CallErrorCode.NoActiveCall);
    }
    if (!(await this.available())) throw unavailable();
  }

  /** The member's transcription counter (their account was deleted: no key keeps their id). */
  async forget(userId: string): Promise<void> {
    await this.limits.forget(userId);
  }

  /** The body read: the chunk checked (400, 413) and transcribed (503 when the backend fails). */
  async transcribe(audio: UploadedAudio | undefined): Promise<TranscriptionDto> {
    if (!audio || audio.size === 0) throw badRequest(CallMessages.audioRequired, CallErrorCode.AudioRequired);
    if (audio.size > this.env.TRANSCRIBE_MAX_BYTES) throw audioTooLarge();
    if (!isWebm(audio.buffer, audio.mimetype)) throw badRequest(CallMessages.audioType, CallErrorCode.AudioType);
    if (!this.transcriber) throw unavailable();
    try {
      return { text: subtitleText(await this.transcriber.transcribe(audio.buffer, 'audio/webm')) };
    } catch (e) {
      const status = e instanceof TranscriberError ? e.status : undefined;
      // The backend is away or refuses us (not just this chunk): say unavailable until it is checked again.
      if (status === undefined || status >= 500 || status === 401 || status === 403 || status === 404) {
        this.health = { available: false, checkedAt: this.clock.now().getTime() };
      }
      this.logger.warn({ backendStatus: status ?? null }, 'transcription failed');
      throw unavailable();
    }
  }
}
