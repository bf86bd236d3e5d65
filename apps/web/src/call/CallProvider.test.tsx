import { SocketError, type MateApi, type SocketClient } from '@mate/api-client';
import { CallErrorCode, CallMessages, ErrorCode, SUBTITLES_SHOWN, SocketMessages } from '@mate/contracts';
import { QueryClient } from '@tanstack/react-query';
import { act, render, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../app/App';
import { aProfile, signedInApi, type FakeApi } from '../testing/fake-api';
import {
  FakeMediaStream,
  aMediaStream,
  asMediaStream,
  fakeCallDevices,
  type FakeCallDevices,
  type FakeMediaStream as FakeStream,
} from '../testing/fake-call-devices';
import { fakeSocketClient, type FakeSocketClient } from '../testing/fake-socket';
import type { SocketClientFactory } from '../realtime/RealtimeContext';
import { MAX_PENDING_SIGNALS, PEER_FAILED_MESSAGE } from './call-engine';
import { ENDED_STATE_MS, useCall, type CallContextValue } from './call-types';

/*
 * The browser's camera, microphone, WebRTC peer and MediaRecorder are stood in by
 * testing/fake-call-devices.ts (jsdom has none of them); the gateway's socket is the fake socket
 * client. Everything between them is the app's own CallProvider and CallEngine.
 */

const BEA = 'b0000000-0000-4000-8000-00000000000b';
const CY = 'c0000000-0000-4000-8000-00000000000c';
const ICE = [{ urls: 'stun:stun.example.test:3478' }];

let call: CallContextValue;
function Probe() {
  call = useCall();
  return null;
}

interface Harness {
  api: FakeApi;
  media: FakeCallDevices;
  client: FakeSocketClient;
  unmount: () => void;
  /** The gateway pushes an event to this member. */
  push: (event: string, payload: unknown) => void;
  /** The payloads the app emitted as `event`, in order. */
  sent: (event: string) => unknown[];
}

async function mount({ subtitles = false } = {}): Promise<Harness> {
  const api = signedInApi(aProfile({ name: 'Ada' }));
  api.calls.getIceServers.mockResolvedValue({ iceServers: ICE, expiresAt: null });
  api.calls.whisperStatus.mockResolvedValue({ available: subtitles });
  const clients: FakeSocketClient[] = [];
  const factory: SocketClientFactory = ({ getToken, onSessionEnded }) => {
    const client = fakeSocketClient(getToken, onSessionEnded);
    client.request.mockResolvedValue({ ok: true });
    clients.push(client);
    return client as unknown as SocketClient;
  };
  const media = fakeCallDevices();
  const { unmount } = render(
    <AppProviders api={api as unknown as MateApi} queryClient={new QueryClient()} realtime={factory} calls={media.devices}>
      <Probe />
    </AppProviders>,
  );
  await waitFor(() => expect(clients).toHaveLength(1));
  const client = clients[0];
  act(() => client.serverConnects());
  // The engine asks for the transcription service as soon as it exists.
  await waitFor(() => expect(api.calls.whisperStatus).toHaveBeenCalled());
  await waitFor(() => expect(call.subtitlesAvailable).toBe(subtitles));
  return {
    api,
    media,
    client,
    unmount,
    push: (event, payload) => act(() => void client.socket.emit(event, payload)),
    sent: (event) => client.request.mock.calls.filter(([name]) => name === event).map(([, payload]) => payload),
  };
}

const tracksOf = (stream: FakeStream) => stream.getTracks();

/** Caller side, up to the remote video playing. */
async function callerInCall(h: Harness) {
  await act(() => call.startCall(BEA, 'Bea'));
  await waitFor(() => expect(h.media.peers).toHaveLength(1));
  h.push('call:accepted', { from: BEA });
  const remote = aMediaStream();
  act(() => void h.media.peers[0].emit('stream', asMediaStream(remote)));
  expect(call.phase).toBe('in-call');
  return { local: h.media.localStreams[0], remote, peer: h.media.peers[0] };
}

describe('CallProvider (spec 000 §4 Live call)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  describe('caller', () => {
    it('obtains media, shows calling, emits call:initiate with its own name, and starts the peer as initiator', async () => {
      const h = await mount();
      await act(() => call.startCall(BEA, 'Bea'));

      expect(h.media.devices.getUserMedia).toHaveBeenCalledTimes(1);
      expect(call).toMatchObject({ phase: 'calling', isCalling: true, isInCall: false, peerId: BEA, peerName: 'Bea' });
      expect(call.localStream).toBe(h.media.localStreams[0]);
      expect(h.sent('call:initiate')).toEqual([{ to: BEA, callerName: 'Ada' }]);
      await waitFor(() => expect(h.media.peers).toHaveLength(1));
      expect(h.media.peers[0].options).toEqual({ initiator: true, stream: call.localStream, iceServers: ICE });
    });

    it('relays every peer signal to the callee as call:signal', async () => {
      const h = await mount();
      await act(() => call.startCall(BEA, 'Bea'));
      await waitFor(() => expect(h.media.peers).toHaveLength(1));
      h.media.peers[0].emit('signal', { type: 'offer', sdp: 'v=0' });
      h.media.peers[0].emit('signal', { candidate: 'c1' });
      expect(h.sent('call:signal')).toEqual([
        { signal: { type: 'offer', sdp: 'v=0' }, to: BEA },
        { signal: { candidate: 'c1' }, to: BEA },
      ]);
    });

    it('moves to connecting on call:accepted (the timer starts) and to in-call when the remote video arrives', async () => {
      const h = await mount();
      await act(() => call.startCall(BEA, 'Bea'));
      await waitFor(() => expect(h.media.peers).toHaveLength(1));
      expect(call.answeredAt).toBeNull();

      const before = Date.now();
      h.push('call:accepted', { from: BEA });
      expect(call).toMatchObject({ phase: 'connecting', isCalling: false, isInCall: true });
      expect(call.answeredAt).toBeGreaterThanOrEqual(before);

      const remote = asMediaStream(aMediaStream());
      act(() => void h.media.peers[0].emit('stream', remote));
      expect(call).toMatchObject({ phase: 'in-call', isInCall: true, remoteStream: remote });
    });

    it('connects without ICE servers when they cannot be fetched', async () => {
      const h = await mount();
      h.api.calls.getIceServers.mockRejectedValue(new Error('Failed to fetch ICE servers'));
      vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      await act(() => call.startCall(BEA, 'Bea'));
      await waitFor(() => expect(h.media.peers).toHaveLength(1));
      expect(h.media.peers[0].options.iceServers).toEqual([]);
    });

    it('rejects with the start-failed text and stays idle when camera or microphone is refused', async () => {
      const h = await mount();
      h.media.devices.getUserMedia.mockRejectedValueOnce(new DOMException('Permission denied', 'NotAllowedError'));
      await act(() => expect(call.startCall(BEA, 'Bea')).rejects.toThrow(CallMessages.startFailed));
      expect(call.phase).toBe('idle');
      expect(h.sent('call:initiate')).toEqual([]);
      expect(h.media.devices.createPeer).not.toHaveBeenCalled();
    });

    it.each([
      [CallMessages.busy, CallErrorCode.Busy],
      [CallMessages.notMatched, CallErrorCode.NotMatched],
      [CallMessages.tooManyCalls, ErrorCode.RateLimited],
    ])(
      "rejects with the server's refusal (%s) once every track is stopped, back to idle with no peer",
      async (refusal, code) => {
        const h = await mount();
        h.client.request.mockImplementation(async (event: string) => {
          if (event === 'call:initiate') throw new SocketError(refusal, code);
          return { ok: true };
        });
        await act(() => expect(call.startCall(BEA, 'Bea')).rejects.toThrow(refusal));
        expect(call).toMatchObject({ phase: 'idle', peerId: null, error: null, localStream: null });
        tracksOf(h.media.localStreams[0]).forEach((track) => expect(track.stop).toHaveBeenCalled());
        expect(h.media.devices.createPeer).not.toHaveBeenCalled();
        // Nothing is left half-started: the next call goes through.
        h.client.request.mockResolvedValue({ ok: true });
        await act(() => call.startCall(BEA, 'Bea'));
        expect(call.phase).toBe('calling');
      },
    );

    it('resolves only once the server holds the call (call:initiate acknowledged)', async () => {
      const h = await mount();
      let acknowledge: () => void = () => undefined;
      h.client.request.mockImplementation((event: string) =>
        event === 'call:initiate'
          ? new Promise((resolve) => (acknowledge = () => resolve({ ok: true })))
          : Promise.resolve({ ok: true }),
      );
      let started = false;
      const starting = call.startCall(BEA, 'Bea').then(() => (started = true));
      await waitFor(() => expect(call.phase).toBe('calling'));
      await act(async () => undefined);
      expect(started).toBe(false);
      acknowledge();
      await act(() => starting);
      expect(started).toBe(true);
    });

    it('refuses to start without a socket connection', async () => {
      const h = await mount();
      act(() => void h.client.disconnect());
      await act(() => expect(call.startCall(BEA, 'Bea')).rejects.toThrow(SocketMessages.notConnected));
      expect(h.media.devices.getUserMedia).not.toHaveBeenCalled();
    });

    it('cleans up as ended by the other side on call:rejected', async () => {
      const h = await mount();
      await act(() => call.startCall(BEA, 'Bea'));
      await waitFor(() => expect(h.media.peers).toHaveLength(1));
      h.push('call:rejected', { from: BEA });
      expect(call).toMatchObject({ phase: 'ended', endedBy: 'remote', error: null });
      expect(h.media.peers[0].destroy).toHaveBeenCalled();
      tracksOf(h.media.localStreams[0]).forEach((track) => expect(track.stop).toHaveBeenCalled());
    });
  });

  describe('callee', () => {
    it('shows the incoming call, buffers early signals and applies them in order once answered', async () => {
      const h = await mount();
      h.push('call:incoming', { from: BEA, callerName: 'Bea' });
      expect(call).toMatchObject({ phase: 'incoming', isReceivingCall: true, peerId: BEA, peerName: 'Bea' });

      h.push('call:signal', { from: BEA, signal: { type: 'offer', sdp: 'v=0' } });
      h.push('call:signal', { from: BEA, signal: { candidate: 'c1' } });
      expect(h.media.devices.createPeer).not.toHaveBeenCalled();

      await act(() => call.answer());
      expect(h.media.devices.getUserMedia).toHaveBeenCalledTimes(1);
      expect(call).toMatchObject({ phase: 'connecting', isInCall: true, isReceivingCall: false });
      expect(call.answeredAt).not.toBeNull();
      expect(h.sent('call:accept')).toEqual([{ to: BEA }]);
      await waitFor(() => expect(h.media.peers).toHaveLength(1));
      const peer = h.media.peers[0];
      expect(peer.options).toMatchObject({ initiator: false, iceServers: ICE });
      expect(peer.signal.mock.calls).toEqual([[{ type: 'offer', sdp: 'v=0' }], [{ candidate: 'c1' }]]);

      h.push('call:signal', { from: BEA, signal: { candidate: 'c2' } });
      expect(peer.signal).toHaveBeenLastCalledWith({ candidate: 'c2' });
      peer.emit('signal', { type: 'answer', sdp: 'v=0' });
      expect(h.sent('call:signal')).toEqual([{ signal: { type: 'answer', sdp: 'v=0' }, to: BEA }]);
    });

    it('reject emits call:reject and clears the state at once', async () => {
      const h = await mount();
      h.push('call:incoming', { from: BEA, callerName: 'Bea' });
      act(() => call.reject());
      expect(h.sent('call:reject')).toEqual([{ to: BEA }]);
      expect(call).toMatchObject({ phase: 'idle', peerId: null, peerName: null, isReceivingCall: false });
      expect(h.media.devices.getUserMedia).not.toHaveBeenCalled();
    });

    it('rejects the call and the answer with the answer-failed text when media is refused', async () => {
      const h = await mount();
      h.push('call:incoming', { from: BEA, callerName: 'Bea' });
      h.media.devices.getUserMedia.mockRejectedValueOnce(new DOMException('Permission denied', 'NotAllowedError'));
      await act(() => expect(call.answer()).rejects.toThrow(CallMessages.answerFailed));
      expect(h.sent('call:reject')).toEqual([{ to: BEA }]);
      expect(h.sent('call:accept')).toEqual([]);
      expect(call.phase).toBe('idle');
    });

    it('turns down a second incoming call while in a call (call:reject, so its caller is not left ringing)', async () => {
      const h = await mount();
      await callerInCall(h);
      h.push('call:incoming', { from: CY, callerName: 'Cy' });
      expect(call).toMatchObject({ phase: 'in-call', peerId: BEA, peerName: 'Bea' });
      expect(h.sent('call:reject')).toEqual([{ to: CY }]);
      // The call's own member again is a repeated event: the call is not turned down.
      h.push('call:incoming', { from: BEA, callerName: 'Bea' });
      expect(h.sent('call:reject')).toEqual([{ to: CY }]);
      expect(call.phase).toBe('in-call');
    });

    it('turns down an incoming call while our own call waits for the camera', async () => {
      const h = await mount();
      let grant: () => void = () => undefined;
      h.media.devices.getUserMedia.mockImplementationOnce(
        () => new Promise((resolve) => (grant = () => resolve(asMediaStream(aMediaStream())))),
      );
      const starting = call.startCall(BEA, 'Bea');
      h.push('call:incoming', { from: CY, callerName: 'Cy' });
      expect(h.sent('call:reject')).toEqual([{ to: CY }]);
      expect(call.phase).toBe('idle');
      grant();
      await act(() => starting);
      expect(call).toMatchObject({ phase: 'calling', peerId: BEA });
    });

    it('a repeated call:incoming from the ringing caller keeps the call ringing', async () => {
      const h = await mount();
      h.push('call:incoming', { from: BEA, callerName: 'Bea' });
      h.push('call:incoming', { from: BEA, callerName: 'Bea' });
      expect(call).toMatchObject({ phase: 'incoming', peerId: BEA });
      expect(h.sent('call:reject')).toEqual([]);
    });

    it('stops ringing when the caller hangs up first', async () => {
      const h = await mount();
      h.push('call:incoming', { from: BEA, callerName: 'Bea' });
      h.push('call:ended', { from: BEA });
      expect(call).toMatchObject({ phase: 'ended', isReceivingCall: false, endedBy: 'remote' });
    });
  });

  describe('signals', () => {
    it('accepts signals only from the member of the active call', async () => {
      const h = await mount();
      h.push('call:incoming', { from: BEA, callerName: 'Bea' });
      h.push('call:signal', { from: CY, signal: { type: 'offer', sdp: 'intruder' } });
      h.push('call:signal', { from: BEA, signal: { type: 'offer', sdp: 'v=0' } });
      await act(() => call.answer());
      await waitFor(() => expect(h.media.peers).toHaveLength(1));
      h.push('call:signal', { from: CY, signal: { candidate: 'intruder' } });
      expect(h.media.peers[0].signal.mock.calls).toEqual([[{ type: 'offer', sdp: 'v=0' }]]);
    });

    it(`keeps at most ${MAX_PENDING_SIGNALS} early signals, objects only; the rest are dropped`, async () => {
      const h = await mount();
      h.push('call:incoming', { from: BEA, callerName: 'Bea' });
      h.push('call:signal', { from: BEA, signal: 'not a signal' });
      h.push('call:signal', { from: BEA, signal: null });
      for (let n = 0; n < MAX_PENDING_SIGNALS + 10; n++) h.push('call:signal', { from: BEA, signal: { candidate: `c${n}` } });
      await act(() => call.answer());
      await waitFor(() => expect(h.media.peers).toHaveLength(1));
      const applied = h.media.peers[0].signal.mock.calls.map(([signal]) => signal);
      expect(applied).toHaveLength(MAX_PENDING_SIGNALS);
      expect(applied[0]).toEqual({ candidate: 'c0' });
      expect(applied.at(-1)).toEqual({ candidate: `c${MAX_PENDING_SIGNALS - 1}` });
      // Once the peer exists, signals go straight to it (a non-object never does).
      h.push('call:signal', { from: BEA, signal: 42 });
      h.push('call:signal', { from: BEA, signal: { candidate: 'late' } });
      expect(h.media.peers[0].signal).toHaveBeenLastCalledWith({ candidate: 'late' });
      expect(h.media.peers[0].signal).toHaveBeenCalledTimes(MAX_PENDING_SIGNALS + 1);
    });

    it('ignores signals and endings when there is no call, or from another member', async () => {
      const h = await mount();
      h.push('call:signal', { from: BEA, signal: { type: 'offer' } });
      h.push('call:ended', { from: BEA });
      expect(call.phase).toBe('idle');
      const { peer } = await callerInCall(h);
      h.push('call:ended', { from: CY });
      h.push('call:rejected', { from: CY });
      expect(call.phase).toBe('in-call');
      expect(peer.destroy).not.toHaveBeenCalled();
    });
  });

  describe('ending', () => {
    it('on call:ended from the other side: every track stopped, ended by remote, then idle after ENDED_STATE_MS', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
      const h = await mount();
      const { local, remote, peer } = await callerInCall(h);

      h.push('call:ended', { from: BEA });
      expect(call).toMatchObject({
        phase: 'ended',
        endedBy: 'remote',
        error: null,
        isInCall: false,
        localStream: null,
        remoteStream: null,
        peerId: BEA,
      });
      [...tracksOf(local), ...tracksOf(remote)].forEach((track) => expect(track.stop).toHaveBeenCalled());
      expect(peer.destroy).toHaveBeenCalled();
      expect(h.sent('call:end')).toEqual([]);

      act(() => void vi.advanceTimersByTime(ENDED_STATE_MS - 200));
      expect(call.phase).toBe('ended');
      act(() => void vi.advanceTimersByTime(200));
      expect(call).toMatchObject({ phase: 'idle', peerId: null, endedBy: null });
    });

    it('end() emits call:end, stops every local and remote track and ends by self', async () => {
      const h = await mount();
      const { local, remote, peer } = await callerInCall(h);
      act(() => call.end());
      expect(h.sent('call:end')).toEqual([{ to: BEA }]);
      expect(call).toMatchObject({ phase: 'ended', endedBy: 'self', error: null });
      [...tracksOf(local), ...tracksOf(remote)].forEach((track) => expect(track.stop).toHaveBeenCalled());
      expect(peer.destroy).toHaveBeenCalled();
      // Our own destroy closes the peer: that is not a second ending.
      peer.emit('close');
      expect(h.sent('call:end')).toHaveLength(1);
    });

    it('end() still ends the call here when call:end fails', async () => {
      const h = await mount();
      await callerInCall(h);
      h.client.request.mockRejectedValue(new SocketError(CallMessages.noActiveCall));
      act(() => call.end());
      expect(call).toMatchObject({ phase: 'ended', endedBy: 'self' });
    });

    it('a peer error ends the call with a short message; a peer close ends it too', async () => {
      const h = await mount();
      vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const first = await callerInCall(h);
      act(() => void first.peer.emit('error', new Error('Ice connection failed')));
      expect(call).toMatchObject({ phase: 'ended', endedBy: 'remote', error: PEER_FAILED_MESSAGE });
      tracksOf(first.local).forEach((track) => expect(track.stop).toHaveBeenCalled());

      // A new call may start while 'ended' shows.
      await act(() => call.startCall(BEA, 'Bea'));
      await waitFor(() => expect(h.media.peers).toHaveLength(2));
      act(() => void h.media.peers[1].emit('close'));
      expect(call).toMatchObject({ phase: 'ended', endedBy: 'remote', error: null });
    });

    it('keeps the call through a socket disconnect (the server ends it only after 15 s)', async () => {
      const h = await mount();
      const { local, peer } = await callerInCall(h);
      act(() => {
        h.client.socket.connected = false;
        h.client.socket.emit('disconnect', 'transport close');
      });
      expect(call.phase).toBe('in-call');
      expect(peer.destroy).not.toHaveBeenCalled();
      tracksOf(local).forEach((track) => expect(track.stop).not.toHaveBeenCalled());
    });

    it('hangs up and stops every track when the app unmounts mid-call', async () => {
      const h = await mount();
      const { local, remote, peer } = await callerInCall(h);
      h.unmount();
      expect(h.sent('call:end')).toEqual([{ to: BEA }]);
      [...tracksOf(local), ...tracksOf(remote)].forEach((track) => expect(track.stop).toHaveBeenCalled());
      expect(peer.destroy).toHaveBeenCalled();
    });
  });

  describe('mute and camera', () => {
    it('disable and enable the local audio and video tracks', async () => {
      const h = await mount();
      const { local } = await callerInCall(h);
      const [audio] = local.getAudioTracks();
      const [video] = local.getVideoTracks();

      act(() => call.toggleMute());
      expect(call.muted).toBe(true);
      expect(audio.enabled).toBe(false);
      expect(video.enabled).toBe(true);

      act(() => call.toggleCamera());
      expect(call.cameraOff).toBe(true);
      expect(video.enabled).toBe(false);

      act(() => call.toggleMute());
      act(() => call.toggleCamera());
      expect(call).toMatchObject({ muted: false, cameraOff: false });
      expect(audio.enabled).toBe(true);
      expect(video.enabled).toBe(true);
    });
  });

  describe('subtitles', () => {
    beforeEach(() => {
      // jsdom has no MediaStream: the recorder's audio-only stream is made from the stand-in.
      vi.stubGlobal('MediaStream', FakeMediaStream);
    });

    it('are available only when the transcription service says so, asked again at each call', async () => {
      const off = await mount();
      expect(call.subtitlesAvailable).toBe(false);
      await callerInCall(off);
      act(() => call.toggleSubtitles());
      expect(call.subtitlesOn).toBe(false);
      expect(off.media.devices.createRecorder).not.toHaveBeenCalled();
      off.unmount();

      const on = await mount({ subtitles: true });
      expect(call.subtitlesAvailable).toBe(true);
      const asked = on.api.calls.whisperStatus.mock.calls.length;
      await act(() => call.startCall(BEA, 'Bea'));
      expect(on.api.calls.whisperStatus.mock.calls.length).toBe(asked + 1);
    });

    it('record the local audio only, transcribe each chunk, show it as You and send it as a subtitle event', async () => {
      const h = await mount({ subtitles: true });
      const { local } = await callerInCall(h);
      act(() => call.toggleSubtitles());
      expect(call.subtitlesOn).toBe(true);
      expect(h.media.recorders).toHaveLength(1);
      expect(h.media.recorders[0].stream.getTracks()).toEqual(local.getAudioTracks());

      h.api.calls.transcribe.mockResolvedValueOnce({ text: ' Hello there ' });
      const chunk = h.media.recorders[0].emitChunk();
      await waitFor(() => expect(call.subtitles).toHaveLength(1));
      expect(h.api.calls.transcribe).toHaveBeenCalledWith(chunk, { signal: expect.any(AbortSignal) });
      expect(call.subtitles[0]).toMatchObject({ text: 'Hello there', speaker: 'local' });
      await waitFor(() => expect(h.sent('subtitle')).toEqual([{ recipientId: BEA, text: 'Hello there' }]));

      // Silence transcribes to '': nothing shown, nothing sent.
      h.api.calls.transcribe.mockResolvedValueOnce({ text: '' });
      h.media.recorders[0].emitChunk();
      await waitFor(() => expect(h.api.calls.transcribe).toHaveBeenCalledTimes(2));
      await act(async () => undefined);
      expect(call.subtitles).toHaveLength(1);
      expect(h.sent('subtitle')).toHaveLength(1);
    });

    it("show the other member's subtitles as Them, ignore anyone else's, and keep only the last 3", async () => {
      const h = await mount({ subtitles: true });
      await callerInCall(h);
      h.push('subtitle', { userId: CY, text: 'not in this call' });
      expect(call.subtitles).toEqual([]);

      h.push('subtitle', { userId: BEA, text: 'one' });
      expect(call.subtitles[0]).toMatchObject({ text: 'one', speaker: 'remote' });
      act(() => call.toggleSubtitles());
      h.api.calls.transcribe.mockResolvedValueOnce({ text: 'two' });
      h.media.recorders[0].emitChunk();
      await waitFor(() => expect(call.subtitles).toHaveLength(2));
      h.push('subtitle', { userId: BEA, text: 'three' });
      h.push('subtitle', { userId: BEA, text: 'four' });

      expect(call.subtitles).toHaveLength(SUBTITLES_SHOWN);
      expect(call.subtitles.map((line) => [line.speaker, line.text])).toEqual([
        ['local', 'two'],
        ['remote', 'three'],
        ['remote', 'four'],
      ]);
      expect(new Set(call.subtitles.map((line) => line.id)).size).toBe(SUBTITLES_SHOWN);
    });

    it('add lines in the order the chunks were recorded, whichever transcription answers first', async () => {
      const h = await mount({ subtitles: true });
      await callerInCall(h);
      act(() => call.toggleSubtitles());
      let answerFirst: (value: { text: string }) => void = () => undefined;
      h.api.calls.transcribe
        .mockReturnValueOnce(new Promise((resolve) => (answerFirst = resolve)))
        .mockResolvedValueOnce({ text: 'second' });
      h.media.recorders[0].emitChunk();
      h.media.recorders[0].emitChunk();
      await waitFor(() => expect(h.api.calls.transcribe).toHaveBeenCalledTimes(2));
      await act(async () => undefined);
      expect(call.subtitles).toEqual([]);
      act(() => answerFirst({ text: 'first' }));
      await waitFor(() => expect(call.subtitles.map((line) => line.text)).toEqual(['first', 'second']));
    });

    it('only log a failed transcription; the call and the recording go on', async () => {
      const h = await mount({ subtitles: true });
      await callerInCall(h);
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      act(() => call.toggleSubtitles());
      h.api.calls.transcribe.mockRejectedValueOnce(new Error('Transcription is not available'));
      h.media.recorders[0].emitChunk();
      await waitFor(() => expect(warn).toHaveBeenCalledWith('Transcription failed:', 'Transcription is not available'));
      expect(call).toMatchObject({ phase: 'in-call', subtitlesOn: true, subtitles: [], error: null });
      expect(h.media.recorders[0].stop).not.toHaveBeenCalled();

      h.api.calls.transcribe.mockResolvedValueOnce({ text: 'still here' });
      h.media.recorders[0].emitChunk();
      await waitFor(() => expect(call.subtitles.map((line) => line.text)).toEqual(['still here']));
    });

    it('do not record while muted: muting stops the recorder, unmuting starts a new one', async () => {
      const h = await mount({ subtitles: true });
      await callerInCall(h);
      act(() => call.toggleMute());
      act(() => call.toggleSubtitles());
      expect(call).toMatchObject({ subtitlesOn: true, muted: true });
      expect(h.media.recorders).toHaveLength(0);

      act(() => call.toggleMute());
      expect(h.media.recorders).toHaveLength(1);
      act(() => call.toggleMute());
      expect(h.media.recorders[0].stop).toHaveBeenCalled();
      // A chunk the stopped recorder still hands over is not transcribed.
      h.media.recorders[0].emitChunk();
      expect(h.api.calls.transcribe).not.toHaveBeenCalled();
      expect(call.subtitlesOn).toBe(true);

      act(() => call.toggleMute());
      expect(h.media.recorders).toHaveLength(2);
      expect(h.media.recorders[1].stop).not.toHaveBeenCalled();
    });

    it('turn off when the recorder fails; the call goes on', async () => {
      const h = await mount({ subtitles: true });
      await callerInCall(h);
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      act(() => call.toggleSubtitles());
      act(() => h.media.recorders[0].emitError(new Error('Microphone unplugged')));
      expect(call).toMatchObject({ phase: 'in-call', subtitlesOn: false });
      expect(h.media.recorders[0].stop).toHaveBeenCalled();
      expect(warn).toHaveBeenCalledWith('Subtitles stopped recording:', 'Microphone unplugged');

      // Turned on again, a new recorder runs; a late error of the old one changes nothing.
      act(() => call.toggleSubtitles());
      expect(h.media.recorders).toHaveLength(2);
      act(() => h.media.recorders[0].emitError());
      expect(call.subtitlesOn).toBe(true);
    });

    it('start recording once the call is answered when turned on while calling', async () => {
      const h = await mount({ subtitles: true });
      await act(() => call.startCall(BEA, 'Bea'));
      act(() => call.toggleSubtitles());
      expect(call.subtitlesOn).toBe(true);
      expect(h.media.recorders).toHaveLength(0);
      h.push('call:accepted', { from: BEA });
      expect(h.media.recorders).toHaveLength(1);
    });

    it('stop recording and abort pending transcriptions when turned off or when the call ends', async () => {
      const h = await mount({ subtitles: true });
      await callerInCall(h);
      act(() => call.toggleSubtitles());
      act(() => call.toggleSubtitles());
      expect(call.subtitlesOn).toBe(false);
      expect(h.media.recorders[0].stop).toHaveBeenCalled();

      act(() => call.toggleSubtitles());
      h.api.calls.transcribe.mockReturnValueOnce(new Promise(() => undefined));
      h.media.recorders[1].emitChunk();
      const [, { signal }] = h.api.calls.transcribe.mock.calls[0] as [Blob, { signal: AbortSignal }];
      act(() => call.end());
      expect(h.media.recorders[1].stop).toHaveBeenCalled();
      expect(signal.aborted).toBe(true);
      expect(call).toMatchObject({ subtitlesOn: false, subtitles: [], subtitlesAvailable: true });
    });
  });
});
