import { SECOND } from './constants';

/**
 * Video calls (issue 11; spec 000 §2 Call screen, Incoming call overlay, Call history; §3 call
 * record, call stats, subtitle, call state; §4 Live call; §7 API and socket events; §8 texts; §9).
 * call-service owns call records, the signalling rules and transcription; the gateway relays the
 * `call:*` and `subtitle` socket events to it (`SOCKET_EVENT_OWNERS`). Media flows peer to peer
 * (simple-peer); the server never sees it.
 */

/** Spec 000 §3 call statuses, with their labels. */
export const CALL_STATUSES = ['in_progress', 'completed', 'missed', 'rejected', 'failed'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
export const CALL_STATUS_LABELS: Readonly<Record<CallStatus, string>> = {
  in_progress: 'In Progress',
  completed: 'Completed',
  missed: 'Missed',
  rejected: 'Rejected',
  failed: 'Failed',
};
/** The statuses a call can end in; `in_progress` is the only one it starts in. */
export const FINAL_CALL_STATUSES: readonly CallStatus[] = ['completed', 'missed', 'rejected', 'failed'];

/** Issue 11: a call not answered within this time becomes missed. */
export const CALL_RING_TIMEOUT_MS = 30 * SECOND;
/** Issue 11: a member whose sockets are all gone for longer than this ends their active call. */
export const CALL_DISCONNECT_GRACE_MS = 15 * SECOND;
/** Spec 000 §9: call history page size on screen; §7: the client's default limit is 50. */
export const CALL_HISTORY_PAGE_SIZE = 20;
export const CALL_HISTORY_DEFAULT_LIMIT = 50;
export const CALL_HISTORY_MAX_LIMIT = 100;
/**
 * The Call History filters the server applies (`GET /api/calls/history?status=`, issue 25): a
 * record's own status, the same for both members (a call nobody answered is `missed` for the
 * caller and the callee alike). Absent: every call, in progress included.
 */
export const CALL_HISTORY_STATUSES = ['completed', 'missed', 'rejected', 'failed'] as const;
export type CallHistoryStatus = (typeof CALL_HISTORY_STATUSES)[number];
/** Response header of `GET /api/calls/history`: `true` when a further page of the same filter exists. */
export const CALL_HISTORY_HAS_MORE_HEADER = 'x-has-more';
/** Spec 000 §9: subtitle chunks of 3 s; the last 3 subtitles are shown. */
export const SUBTITLE_CHUNK_MS = 3 * SECOND;
export const SUBTITLES_SHOWN = 3;
/** Longest subtitle text relayed (characters). */
export const SUBTITLE_MAX_LENGTH = 500;
/** Issue 11: an audio chunk sent for transcription is at most 1 MB. */
export const TRANSCRIBE_MAX_BYTES = 1024 * 1024;
/** Spec 000 §4 and §9: the call screen goes to /dashboard 500 ms after the call ends. */
export const CALL_END_REDIRECT_MS = 500;

/** Spec 000 §3 "Call record" (`GET /api/calls/history`, `GET /api/calls/{id}`). */
export interface CallRecordDto {
  id: string;
  callerId: string;
  recipientId: string;
  /** Profile names as the server knows them (never the client's `callerName`); null when unknown. */
  callerName: string | null;
  recipientName: string | null;
  status: CallStatus;
  startedAt: string;
  /** Seconds between the answer and the end, measured by the server; 0 when never answered, null while in progress. */
  durationSeconds: number | null;
  /**
   * Profile pictures as the server knows them (issue 25; like a conversation summary's
   * profilePicture): null without one, for a deleted member and while a member is suspended.
   */
  callerProfilePicture?: string | null;
  recipientProfilePicture?: string | null;
  /**
   * Whether the two members may call each other now (still matched, neither blocks the other,
   * neither suspended nor deleted). The server decides again on call:initiate.
   */
  callable?: boolean;
}

/** Spec 000 §3 "Call stats" (`GET /api/calls/stats`). */
export interface CallStatsDto {
  totalCalls: number;
  completedCalls: number;
  /** completedCalls / totalCalls as a fraction (0 when there is no call); the screen shows a percent with 1 decimal. */
  successRate: number;
  /** Mean duration of completed calls, in seconds (0 when none). */
  averageDurationSeconds: number;
}

/** One ICE server as RTCPeerConnection takes it. */
export interface IceServerDto {
  urls: string | string[];
  username?: string;
  credential?: string;
}

/** `GET /api/calls/ice-servers`: STUN and TURN from configuration (TURN credentials time-limited). */
export interface IceServersDto {
  iceServers: IceServerDto[];
  /** When the TURN credentials stop working (ISO time), or null without TURN. */
  expiresAt: string | null;
}

/** `GET /api/whisper/status`. */
export interface WhisperStatusDto {
  available: boolean;
}

/** `POST /api/whisper/transcribe` (multipart field `audio`, webm/opus). */
export interface TranscriptionDto {
  text: string;
}

/** Spec 000 §3 "Subtitle" (client side). */
export interface SubtitleLine {
  id: string;
  text: string;
  speaker: 'local' | 'remote';
  timestamp: number;
}

/** Texts of call-service's refusals and of the call screens (spec 000 §2, §8). */
export const CallMessages = {
  callSelf: "You can't call yourself",
  /** Refused: not matched, or one of the two blocks the other (told the same). */
  notMatched: 'You can only call your matches',
  /** The callee (or the caller) is already in a call: recorded as failed. */
  busy: 'User is busy',
  noActiveCall: 'No active call with this member',
  callNotFound: 'Call not found',
  audioRequired: 'An audio file is required',
  audioTooLarge: 'Audio must be at most 1 MB',
  audioType: 'Audio must be webm (opus)',
  transcriptionUnavailable: 'Transcription is not available',
  tooManyTranscriptions: 'Too many transcription requests. Please slow down.',
  tooManyCalls: 'Too many calls. Please try again later.',
  subtitleTooLong: `Subtitle must be at most ${SUBTITLE_MAX_LENGTH} characters`,
  /** Spec 000 §8. */
  historyFailed: 'Failed to fetch call history',
  /** `GET /api/calls/history?status=` with anything but a filter of CALL_HISTORY_STATUSES. */
  badHistoryStatus: `status must be one of ${CALL_HISTORY_STATUSES.join(', ')}`,
  statsFailed: 'Failed to fetch call stats',
  callFailed: 'Failed to fetch call',
  loadHistoryFailed: 'Failed to load call history',
  mediaFailed: 'Failed to access camera/microphone',
  startFailed: 'Failed to start call. Please check camera/microphone permissions.',
  answerFailed: 'Failed to answer call. Please check camera/microphone permissions.',
} as const;

/** Codes of call-service's refusals, one per cause, over HTTP and in socket acknowledgements alike. */
export enum CallErrorCode {
  CallSelf = 'CALL_SELF',
  NotMatched = 'CALL_NOT_MATCHED',
  Busy = 'USER_BUSY',
  NoActiveCall = 'NO_ACTIVE_CALL',
  CallNotFound = 'CALL_NOT_FOUND',
  SignalTooLarge = 'SIGNAL_TOO_LARGE',
  SubtitleTooLong = 'SUBTITLE_TOO_LONG',
  AudioRequired = 'AUDIO_REQUIRED',
  AudioType = 'AUDIO_NOT_WEBM',
}

/** Screen texts of spec 000 §2, word for word. */
export const CallTexts = {
  calling: (name: string) => `Calling ${name}...`,
  inCall: (name: string) => `In call with ${name}`,
  connecting: 'Connecting...',
  ended: 'Call ended',
  incomingTitle: 'Incoming Video Call',
  incomingBody: (name: string) => `${name} is calling you...`,
  reject: 'Reject',
  answer: 'Answer',
  historyTitle: 'Call History',
  filters: { all: 'All Calls', completed: 'Completed', missed: 'Missed', rejected: 'Rejected', failed: 'Failed' },
  previous: 'Previous',
  next: 'Next',
  page: (n: number) => `Page ${n}`,
  /** Accessible name of a history row's call-back button (issue 25). */
  callBack: (name: string) => `Call ${name} back`,
  you: 'You',
  them: 'Them',
} as const;

/** Spec 000 §2: the timer as mm:ss. */
export function formatCallTimer(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** Spec 000 §3 and §9: a fraction shown as a percent with 1 decimal (0.6667 → '66.7%'). */
export function formatSuccessRate(fraction: number): string {
  return `${((Number.isFinite(fraction) ? fraction : 0) * 100).toFixed(1)}%`;
}

/** Calls' part of a data export (issue 12; call-service). */
export interface CallsExportPart {
  calls: { id: string; withUserId: string; direction: 'outgoing' | 'incoming'; status: string; startedAt: string; answeredAt: string | null; endedAt: string | null; durationSeconds: number | null }[];
}
