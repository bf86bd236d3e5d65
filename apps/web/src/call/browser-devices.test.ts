import { SUBTITLE_CHUNK_MS } from '@mate/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browserCallDevices } from './browser-devices';

// WebRTC is not in jsdom: simple-peer's constructor is stood in to see the options it gets.
const simplePeer = vi.hoisted(() => vi.fn());
vi.mock('simple-peer', () => ({ default: simplePeer }));

describe('browserCallDevices.createPeer', () => {
  const stream = {} as MediaStream;
  const iceServers = [{ urls: 'stun:stun.example.test:3478' }];

  it('refuses before the call code has loaded (it comes with the camera and microphone)', () => {
    expect(() => browserCallDevices.createPeer({ initiator: true, stream, iceServers })).toThrow(
      'The call code has not loaded',
    );
    expect(simplePeer).not.toHaveBeenCalled();
  });

  it('makes a trickling simple-peer with the local stream and the ICE servers once the media were asked for', async () => {
    const getUserMedia = vi.fn().mockResolvedValue(stream);
    vi.stubGlobal('navigator', { mediaDevices: { getUserMedia } });
    try {
      await expect(browserCallDevices.getUserMedia()).resolves.toBe(stream);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(getUserMedia).toHaveBeenCalledWith({ video: true, audio: true });
    browserCallDevices.createPeer({ initiator: true, stream, iceServers });
    expect(simplePeer).toHaveBeenCalledWith({ initiator: true, stream, trickle: true, config: { iceServers } });
  });
});

/*
 * jsdom has no MediaRecorder: a stand-in records what the subtitle recorder asks of it and, like
 * the browser, delivers its data and then `stop` asynchronously after stop().
 */
let supported: string[] = [];
class FakeMediaRecorder {
  static instances: FakeMediaRecorder[] = [];
  static isTypeSupported(type: string) {
    return supported.includes(type);
  }
  state: 'inactive' | 'recording' = 'inactive';
  ondataavailable: ((event: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor(
    readonly stream: MediaStream,
    readonly options?: { mimeType?: string },
  ) {
    FakeMediaRecorder.instances.push(this);
  }
  get mimeType() {
    return this.options?.mimeType ?? '';
  }
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    const n = FakeMediaRecorder.instances.indexOf(this);
    void Promise.resolve().then(() => {
      this.ondataavailable?.({ data: new Blob([`audio of chunk ${n}`]) });
      this.onstop?.();
    });
  }
}

describe('browserCallDevices.createRecorder (subtitle chunks)', () => {
  const stream = {} as MediaStream;
  const noError = () => undefined;

  beforeEach(() => {
    supported = ['audio/webm;codecs=opus', 'audio/webm'];
    FakeMediaRecorder.instances = [];
    vi.stubGlobal('MediaRecorder', FakeMediaRecorder);
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('records each 3 s chunk with a new webm/opus recorder, so every chunk is a file of its own', async () => {
    const chunks: Blob[] = [];
    const recording = browserCallDevices.createRecorder(stream, (chunk) => chunks.push(chunk), noError);
    expect(FakeMediaRecorder.instances).toHaveLength(1);
    const [first] = FakeMediaRecorder.instances;
    expect(first).toMatchObject({ stream, options: { mimeType: 'audio/webm;codecs=opus' }, state: 'recording' });

    await vi.advanceTimersByTimeAsync(SUBTITLE_CHUNK_MS);
    expect(first.state).toBe('inactive');
    expect(FakeMediaRecorder.instances).toHaveLength(2);
    expect(FakeMediaRecorder.instances[1].state).toBe('recording');
    expect(chunks).toHaveLength(1);
    expect(chunks[0].type).toBe('audio/webm;codecs=opus');
    expect(await chunks[0].text()).toBe('audio of chunk 0');

    await vi.advanceTimersByTimeAsync(SUBTITLE_CHUNK_MS);
    expect(chunks).toHaveLength(2);
    expect(await chunks[1].text()).toBe('audio of chunk 1');
    recording.stop();
  });

  it('stop() ends the loop: the recorder stops, its cut-short piece is dropped and no new one starts', async () => {
    const onChunk = vi.fn();
    const recording = browserCallDevices.createRecorder(stream, onChunk, noError);
    await vi.advanceTimersByTimeAsync(SUBTITLE_CHUNK_MS / 2);
    recording.stop();
    await vi.advanceTimersByTimeAsync(SUBTITLE_CHUNK_MS * 3);
    expect(FakeMediaRecorder.instances).toHaveLength(1);
    expect(FakeMediaRecorder.instances[0].state).toBe('inactive');
    expect(onChunk).not.toHaveBeenCalled();
  });

  it('stops and tells the call once when the browser recorder fails (the microphone went away)', async () => {
    const onError = vi.fn();
    const onChunk = vi.fn();
    browserCallDevices.createRecorder(stream, onChunk, onError);
    const [first] = FakeMediaRecorder.instances;
    first.onerror?.(new Event('error'));
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0][0]).toBeInstanceOf(Error);
    expect(first.state).toBe('inactive');
    await vi.advanceTimersByTimeAsync(SUBTITLE_CHUNK_MS * 3);
    expect(FakeMediaRecorder.instances).toHaveLength(1);
    expect(onChunk).not.toHaveBeenCalled();
    first.onerror?.(new Event('error'));
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('falls back to plain webm where the opus hint is not supported', () => {
    supported = ['audio/webm'];
    const recording = browserCallDevices.createRecorder(stream, () => undefined, noError);
    expect(FakeMediaRecorder.instances[0].options).toEqual({ mimeType: 'audio/webm' });
    recording.stop();
  });
});
