import type { SubtitleLine } from '@mate/contracts';
import { createContext, useContext } from 'react';

/**
 * The live call of spec 000 §4, as the app's screens see it. One call at a time per tab: the
 * CallProvider (call/CallProvider.tsx) owns the peer connection, the media and the signalling;
 * the Call screen, the Incoming call overlay and the chat's Video Call button read and drive it
 * through `useCall()`.
 *
 *   idle ──startCall──▶ calling ──call:accepted──▶ connecting ──remote stream──▶ in-call
 *   idle ──call:incoming──▶ incoming ──answer──▶ connecting ──remote stream──▶ in-call
 *   any ──end / call:ended / call:rejected / peer error or close──▶ ended ──▶ idle
 */
export type CallPhase = 'idle' | 'calling' | 'incoming' | 'connecting' | 'in-call' | 'ended';

/** Our call is placed or answered and not over: End hangs it up (the call screen and the call bar show it). */
export const LIVE_CALL_PHASES: readonly CallPhase[] = ['calling', 'connecting', 'in-call'];

export function isLiveCall(phase: CallPhase): boolean {
  return LIVE_CALL_PHASES.includes(phase);
}

export interface CallState {
  phase: CallPhase;
  /** The other member of the call (callee or caller); null when idle. */
  peerId: string | null;
  /** Their name as the server gave it (call:incoming's callerName, or the name startCall got). */
  peerName: string | null;
  /** Spec 000 §3 "Call state (client)": derived from `phase`. */
  isCalling: boolean;
  isReceivingCall: boolean;
  /** connecting or in-call: the call was answered. */
  isInCall: boolean;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  /** Epoch ms when the call was answered (the mm:ss timer counts from it); null before. */
  answeredAt: number | null;
  muted: boolean;
  cameraOff: boolean;
  /** GET /api/whisper/status said available: the subtitle button shows. */
  subtitlesAvailable: boolean;
  /**
   * The member turned subtitles on: local audio goes to transcription in 3 s chunks while the call
   * is answered and the member is not muted. Turns off by itself when the recorder fails.
   */
  subtitlesOn: boolean;
  /** The last 3 subtitles (spec 000 §4), oldest first; `speaker` labels them You / Them. */
  subtitles: SubtitleLine[];
  /**
   * Why the last call ended or failed, shown on the call screen (e.g. the peer connection failed,
   * or the call stopped ringing before the answer reached the server); or null. A refused
   * call:initiate is not shown here: startCall rejects with it.
   * `ended` lasts ENDED_STATE_MS, then the state returns to idle (a new call may start at once).
   */
  error: string | null;
  /**
   * Who ended the call: 'self' (End pressed, the screen leaves at once) or 'remote' (the other
   * member, the server, a peer failure: the screen shows 'Call ended' and leaves after 500 ms).
   */
  endedBy: 'self' | 'remote' | null;
}

export interface CallActions {
  /**
   * Caller path: obtains camera and microphone, enters `calling`, emits call:initiate
   * {to, callerName} and starts the peer as initiator. Resolves once the server holds the call
   * (call:initiate acknowledged; the chat then opens /call/{userId}). Rejects, and the chat shows
   * the message as an alert and stays put, with:
   * - Error(CallMessages.startFailed) when camera or microphone is refused;
   * - SocketMessages.notConnected when there is no socket;
   * - the server's refusal (call:initiate's ack `{error}`: 'User is busy', 'You can only call your
   *   matches', too many calls): tracks stopped, no peer, the state back to idle (not `ended`).
   */
  startCall(userId: string, name: string): Promise<void>;
  /**
   * Callee path: obtains media, emits call:accept, applies buffered signals. On a media failure it
   * rejects the call (call:reject) and rejects with Error(CallMessages.answerFailed).
   */
  answer(): Promise<void>;
  /** Callee declines: call:reject, state cleared. */
  reject(): void;
  /** Either side hangs up: call:end, every track stopped, state reset (endedBy 'self'). */
  end(): void;
  toggleMute(): void;
  toggleCamera(): void;
  toggleSubtitles(): void;
}

export type CallContextValue = CallState & CallActions;

/** `state` in `phase`, with spec 000 §3's flags derived from it (the one place they are set). */
export function withPhase(state: CallState, phase: CallPhase): CallState {
  return {
    ...state,
    phase,
    isCalling: phase === 'calling',
    isReceivingCall: phase === 'incoming',
    isInCall: phase === 'connecting' || phase === 'in-call',
  };
}

/** How long `ended` stays before idle: the call screen shows 'Call ended' and leaves after 500 ms. */
export const ENDED_STATE_MS = 2_000;

export const IDLE_CALL_STATE: CallState = {
  phase: 'idle',
  peerId: null,
  peerName: null,
  isCalling: false,
  isReceivingCall: false,
  isInCall: false,
  localStream: null,
  remoteStream: null,
  answeredAt: null,
  muted: false,
  cameraOff: false,
  subtitlesAvailable: false,
  subtitlesOn: false,
  subtitles: [],
  error: null,
  endedBy: null,
};

const notProvided = (): never => {
  throw new Error('useCall() needs a CallProvider above it');
};

/** Without a provider (screens tested alone) the call is idle and its actions throw. */
export const CallContext = createContext<CallContextValue>({
  ...IDLE_CALL_STATE,
  startCall: notProvided,
  answer: notProvided,
  reject: notProvided,
  end: notProvided,
  toggleMute: notProvided,
  toggleCamera: notProvided,
  toggleSubtitles: notProvided,
});

export function useCall(): CallContextValue {
  return useContext(CallContext);
}

// ---- The browser's parts, injected so unit tests can stand in for them (Playwright uses the real ones).

/** Camera and microphone: navigator.mediaDevices.getUserMedia({ video: true, audio: true }). */
export type GetUserMedia = () => Promise<MediaStream>;

/** The part of a simple-peer instance the provider uses. */
export interface PeerLike {
  signal(data: unknown): void;
  destroy(): void;
  on(event: 'signal', listener: (data: unknown) => void): this;
  on(event: 'stream', listener: (stream: MediaStream) => void): this;
  on(event: 'connect' | 'close', listener: () => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
}

export type PeerFactory = (options: {
  initiator: boolean;
  stream: MediaStream;
  iceServers: RTCIceServer[];
}) => PeerLike;

/**
 * Records the local audio as standalone 3-second webm/opus chunks (a new MediaRecorder per chunk,
 * so each chunk has its own header and decodes alone) and hands each to `onChunk`. stop() ends it.
 * When the browser's recorder fails, recording stops and `onError` is told (once).
 */
export type ChunkRecorderFactory = (
  stream: MediaStream,
  onChunk: (chunk: Blob) => void,
  onError: (error: Error) => void,
) => { stop(): void };

export interface CallDevices {
  getUserMedia: GetUserMedia;
  createPeer: PeerFactory;
  createRecorder: ChunkRecorderFactory;
}
