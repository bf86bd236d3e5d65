import {
  CALL_HISTORY_DEFAULT_LIMIT,
  CALL_HISTORY_HAS_MORE_HEADER,
  CallMessages,
  TRANSCRIBE_MAX_BYTES,
  type CallHistoryStatus,
  type CallRecordDto,
  type CallStatsDto,
  type IceServersDto,
  type TranscriptionDto,
  type WhisperStatusDto,
} from '@mate/contracts';
import { ApiError } from './errors';
import type { HttpClient } from './http';

/**
 * Fallbacks of the calls the spec does not list in §8 (issue 11 added the ICE endpoint and the
 * transcription upload); named like their siblings, shown only when the server gives no `error`.
 */
export const CallClientMessages = {
  iceServersFailed: 'Failed to fetch ICE servers',
  transcribeFailed: 'Failed to transcribe audio',
} as const;

export interface HistoryPage {
  limit?: number;
  offset?: number;
}

/** One page of the call history and whether another page of the same filter follows. */
export interface CallHistoryPage {
  calls: CallRecordDto[];
  hasMore: boolean;
}

export interface TranscribeOptions {
  /** Aborts the upload (the call ended, or a newer chunk replaced this one). */
  signal?: AbortSignal;
}

export interface CallsApi {
  /**
   * GET /api/calls/history?limit&offset&status (spec 000 §7): the member's call records, newest
   * first. The limit defaults to 50 (the spec's client default); the Call History screen asks for
   * 20. With a status the server filters the whole history, then pages (issue 25); without one,
   * every call.
   */
  getHistory(limit?: number, offset?: number, status?: CallHistoryStatus): Promise<CallRecordDto[]>;
  /**
   * The same request, with the server's `x-has-more` (issue 25): whether another page of the same
   * filter follows. A server that does not send it: more when the page came back full (spec 000 §9).
   */
  getHistoryPage(limit?: number, offset?: number, status?: CallHistoryStatus): Promise<CallHistoryPage>;
  /** GET /api/calls/stats: totals, success rate as a fraction, average duration in seconds. */
  getStats(): Promise<CallStatsDto>;
  /** GET /api/calls/{id}: one call record (only for its two members). */
  getCall(id: string): Promise<CallRecordDto>;
  /** GET /api/calls/ice-servers: STUN and TURN (time-limited credentials) for RTCPeerConnection. */
  getIceServers(): Promise<IceServersDto>;
  /**
   * GET /api/whisper/status. Never fails: any refusal or network failure reads as not available,
   * which hides the subtitle button (spec 000 §2). A 401 still ends the session.
   */
  whisperStatus(): Promise<WhisperStatusDto>;
  /**
   * POST /api/whisper/transcribe, multipart field `audio` (one standalone webm/opus chunk, at most
   * 1 MB: a larger one is refused here without a request). Answers the text ('' for silence).
   */
  transcribe(audio: Blob, options?: TranscribeOptions): Promise<TranscriptionDto>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

const finite = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

export function createCallsApi(http: HttpClient): CallsApi {
  const getHistoryPage: CallsApi['getHistoryPage'] = async (
    limit = CALL_HISTORY_DEFAULT_LIMIT,
    offset = 0,
    status,
  ) => {
    const { body, headers } = await http.getWithHeaders<unknown>('/api/calls/history', {
      query: { limit, offset, status },
      cache: 'no-store',
      fallbackMessage: CallMessages.historyFailed,
    });
    const calls = Array.isArray(body) ? (body as CallRecordDto[]) : [];
    const said = headers.get(CALL_HISTORY_HAS_MORE_HEADER);
    return { calls, hasMore: said === null ? calls.length === limit : said === 'true' };
  };
  return {
    async getHistory(limit, offset, status) {
      return (await getHistoryPage(limit, offset, status)).calls;
    },
    getHistoryPage,
    async getStats() {
      const body = await http.get<unknown>('/api/calls/stats', {
        cache: 'no-store',
        fallbackMessage: CallMessages.statsFailed,
      });
      const raw = isRecord(body) ? body : {};
      return {
        totalCalls: finite(raw['totalCalls']),
        completedCalls: finite(raw['completedCalls']),
        successRate: finite(raw['successRate']),
        averageDurationSeconds: finite(raw['averageDurationSeconds']),
      };
    },
    getCall(id) {
      return http.get<CallRecordDto>(`/api/calls/${encodeURIComponent(id)}`, {
        cache: 'no-store',
        fallbackMessage: CallMessages.callFailed,
      });
    },
    async getIceServers() {
      const body = await http.get<unknown>('/api/calls/ice-servers', {
        cache: 'no-store',
        fallbackMessage: CallClientMessages.iceServersFailed,
      });
      const raw = isRecord(body) ? body : {};
      return {
        iceServers: Array.isArray(raw['iceServers']) ? (raw['iceServers'] as IceServersDto['iceServers']) : [],
        expiresAt: typeof raw['expiresAt'] === 'string' ? raw['expiresAt'] : null,
      };
    },
    async whisperStatus() {
      try {
        const body = await http.get<unknown>('/api/whisper/status', { cache: 'no-store' });
        return { available: isRecord(body) && body['available'] === true };
      } catch {
        return { available: false };
      }
    },
    async transcribe(audio, options = {}) {
      if (audio.size > TRANSCRIBE_MAX_BYTES) throw new ApiError(CallMessages.audioTooLarge, 413);
      const form = new FormData();
      // A recorder's blob says `audio/webm;codecs=opus`; one without a type is sent as webm too.
      form.append('audio', audio.type ? audio : new Blob([audio], { type: 'audio/webm' }), 'chunk.webm');
      const body = await http.post<unknown>('/api/whisper/transcribe', {
        body: form,
        signal: options.signal,
        fallbackMessage: CallClientMessages.transcribeFailed,
      });
      return { text: isRecord(body) && typeof body['text'] === 'string' ? body['text'] : '' };
    },
  };
}
