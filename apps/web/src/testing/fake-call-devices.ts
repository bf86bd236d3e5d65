import { EventEmitter } from 'node:events';
import { vi } from 'vitest';
import type { CallDevices, PeerLike } from '../call/call-types';

/**
 * Stand-ins for the browser's media and WebRTC (jsdom has neither): camera and microphone tracks
 * whose stop() is a spy, a simple-peer look-alike that records the signals it is given, and a
 * subtitle recorder a test makes hand over chunks. Playwright runs the real ones.
 */

export class FakeTrack {
  enabled = true;
  readonly stop = vi.fn();
  constructor(readonly kind: 'audio' | 'video') {}
}

/** Also installed as the global MediaStream (jsdom has none) by tests that record subtitles. */
export class FakeMediaStream {
  private readonly tracks: FakeTrack[];
  constructor(tracks: FakeTrack[] = []) {
    this.tracks = [...tracks];
  }
  getTracks() {
    return [...this.tracks];
  }
  getAudioTracks() {
    return this.tracks.filter((track) => track.kind === 'audio');
  }
  getVideoTracks() {
    return this.tracks.filter((track) => track.kind === 'video');
  }
}

/** A camera-and-microphone stream, as getUserMedia({ video: true, audio: true }) gives one. */
export function aMediaStream(): FakeMediaStream {
  return new FakeMediaStream([new FakeTrack('audio'), new FakeTrack('video')]);
}

export const asMediaStream = (stream: FakeMediaStream) => stream as unknown as MediaStream;

export class FakePeer extends EventEmitter {
  readonly signal = vi.fn();
  readonly destroy = vi.fn();
  constructor(readonly options: { initiator: boolean; stream: MediaStream; iceServers: RTCIceServer[] }) {
    super();
  }
}

export class FakeRecorder {
  readonly stop = vi.fn();
  constructor(
    readonly stream: FakeMediaStream,
    private readonly onChunk: (chunk: Blob) => void,
    private readonly onError: (error: Error) => void,
  ) {}
  /** The recorder finished a 3 s chunk. */
  emitChunk(chunk: Blob = new Blob(['opus'], { type: 'audio/webm;codecs=opus' })): Blob {
    this.onChunk(chunk);
    return chunk;
  }
  /** The browser's recorder failed (the microphone went away). */
  emitError(error = new Error('The audio recorder failed')): void {
    this.onError(error);
  }
}

export function fakeCallDevices() {
  const localStreams: FakeMediaStream[] = [];
  const peers: FakePeer[] = [];
  const recorders: FakeRecorder[] = [];
  const devices = {
    getUserMedia: vi.fn(async () => {
      const stream = aMediaStream();
      localStreams.push(stream);
      return asMediaStream(stream);
    }),
    createPeer: vi.fn((options: { initiator: boolean; stream: MediaStream; iceServers: RTCIceServer[] }) => {
      const peer = new FakePeer(options);
      peers.push(peer);
      return peer as unknown as PeerLike;
    }),
    createRecorder: vi.fn(
      (stream: MediaStream, onChunk: (chunk: Blob) => void, onError: (error: Error) => void) => {
        const recorder = new FakeRecorder(stream as unknown as FakeMediaStream, onChunk, onError);
        recorders.push(recorder);
        return recorder;
      },
    ),
  } satisfies CallDevices;
  return { devices, localStreams, peers, recorders };
}
export type FakeCallDevices = ReturnType<typeof fakeCallDevices>;
