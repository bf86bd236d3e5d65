import { SUBTITLE_CHUNK_MS } from '@mate/contracts';
import type SimplePeerType from 'simple-peer';
import type { CallDevices, ChunkRecorderFactory, PeerFactory, PeerLike } from './call-types';

/** What the recorder asks for (spec 000 §4: webm opus); a browser without the codec hint gets plain webm. */
const SUBTITLE_AUDIO_TYPES = ['audio/webm;codecs=opus', 'audio/webm'];

/**
 * simple-peer (with its polyfills, ~30 KB compressed) downloads only for a call (issue 26): while
 * the camera and microphone are asked for, which comes first in placing and in answering a call
 * (call/call-engine.ts), so the peer can be made synchronously afterwards.
 */
let SimplePeer: typeof SimplePeerType | null = null;
let simplePeerLoading: Promise<unknown> | null = null;
function loadSimplePeer(): Promise<unknown> {
  simplePeerLoading ??= import('simple-peer').then(
    (module) => {
      SimplePeer = module.default;
    },
    (error: unknown) => {
      simplePeerLoading = null;
      throw error;
    },
  );
  return simplePeerLoading;
}

const createPeer: PeerFactory = ({ initiator, stream, iceServers }) => {
  if (!SimplePeer) throw new Error('The call code has not loaded');
  return new SimplePeer({ initiator, stream, trickle: true, config: { iceServers } }) as unknown as PeerLike;
};

/**
 * A new MediaRecorder for every SUBTITLE_CHUNK_MS: one recorder's timeslices after the first have
 * no webm header and cannot be transcribed alone, so each chunk is a whole recording of its own.
 */
const createRecorder: ChunkRecorderFactory = (stream, onChunk, onError) => {
  const mimeType = SUBTITLE_AUDIO_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
  let stopped = false;
  let recorder: MediaRecorder | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const stop = () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = null;
    if (recorder && recorder.state !== 'inactive') recorder.stop();
    recorder = null;
  };

  const recordChunk = () => {
    if (stopped) return;
    const current = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    const parts: Blob[] = [];
    current.ondataavailable = (event) => {
      if (event.data.size > 0) parts.push(event.data);
    };
    current.onstop = () => {
      // The piece cut short by stop() is dropped: the call or the subtitles are over.
      if (stopped || parts.length === 0) return;
      onChunk(new Blob(parts, { type: current.mimeType || mimeType || 'audio/webm' }));
    };
    current.onerror = (event) => {
      if (stopped) return;
      stop();
      const cause = (event as Event & { error?: unknown }).error;
      onError(cause instanceof Error ? cause : new Error('The audio recorder failed'));
    };
    recorder = current;
    current.start();
    timer = setTimeout(() => {
      timer = null;
      if (current.state !== 'inactive') current.stop();
      recordChunk();
    }, SUBTITLE_CHUNK_MS);
  };

  recordChunk();
  return { stop };
};

/** The browser's camera, microphone, WebRTC (simple-peer) and MediaRecorder, for main.tsx. */
export const browserCallDevices: CallDevices = {
  getUserMedia: async () => {
    const [stream] = await Promise.all([
      navigator.mediaDevices.getUserMedia({ video: true, audio: true }),
      loadSimplePeer(),
    ]);
    return stream;
  },
  createPeer,
  createRecorder,
};
