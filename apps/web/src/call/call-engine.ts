import type { CallsApi, SocketClient } from '@mate/api-client';
import {
  CallMessages,
  SUBTITLE_MAX_LENGTH,
  SUBTITLES_SHOWN,
  SocketMessages,
  type ServerEventPayload,
  type SubtitleLine,
} from '@mate/contracts';
import {
  ENDED_STATE_MS,
  IDLE_CALL_STATE,
  LIVE_CALL_PHASES,
  isLiveCall,
  withPhase,
  type CallActions,
  type CallDevices,
  type CallPhase,
  type CallState,
  type PeerLike,
} from './call-types';

/** Shown on the call screen when the peer connection fails (simple-peer's own texts are technical). */
export const PEER_FAILED_MESSAGE = 'The call connection failed';

/**
 * How many of the caller's signals are kept while the callee has not answered (an offer and its ICE
 * candidates are a few dozen at most); past it they are dropped, so a flood cannot grow the tab's memory.
 */
export const MAX_PENDING_SIGNALS = 64;

export interface CallEngineOptions {
  /** The session's realtime client: signalling goes through it (spec 000 §7). */
  socket: SocketClient;
  calls: Pick<CallsApi, 'getIceServers' | 'whisperStatus' | 'transcribe'>;
  devices: CallDevices;
  /** The member's own name, sent as call:initiate's callerName (the server puts the profile name in anyway). */
  selfName: () => string;
  onChange: (state: CallState) => void;
  now?: () => number;
}

/** A call is ringing here or live: another may not start, and it is hung up on dispose. */
const ACTIVE_PHASES: readonly CallPhase[] = ['incoming', ...LIVE_CALL_PHASES];

function stopTracks(stream: MediaStream | null): void {
  stream?.getTracks().forEach((track) => track.stop());
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The live call of spec 000 §4, one per signed-in session: owns the media, the peer connection,
 * the subtitle recorder and the `call:*` / `subtitle` socket events, and reports its state to the
 * CallProvider. Every call gets a new generation; async work of an older call (media granted after
 * the caller hung up, a late transcription) sees that the generation moved on and stops.
 */
export class CallEngine implements CallActions {
  private state: CallState = IDLE_CALL_STATE;
  private generation = 0;
  /** startCall is waiting for the camera: another call may not start, an incoming one is ignored. */
  private starting = false;
  /** Who startCall is calling while it waits for the camera. */
  private startingPeerId: string | null = null;
  private peer: PeerLike | null = null;
  /** The active call's member's signals that came before our peer existed, in arrival order. */
  private pendingSignals: unknown[] = [];
  private recorder: { stop(): void } | null = null;
  private readonly transcriptions = new Set<AbortController>();
  /** Transcriptions run side by side; their lines are added in the order the chunks were recorded. */
  private subtitleOrder: Promise<void> = Promise.resolve();
  private endedTimer: ReturnType<typeof setTimeout> | null = null;
  private lineCount = 0;
  private disposed = false;
  private readonly now: () => number;

  constructor(private readonly options: CallEngineOptions) {
    this.now = options.now ?? Date.now;
    this.listen(true);
    void this.refreshSubtitlesAvailable();
  }

  /** The provider unmounted or the session ended: hang up (best effort) and release everything. */
  dispose(): void {
    if (this.disposed) return;
    this.listen(false);
    const { phase, peerId } = this.state;
    if (peerId && ACTIVE_PHASES.includes(phase)) {
      this.sendQuietly(phase === 'incoming' ? 'call:reject' : 'call:end', peerId);
    }
    this.disposed = true;
    this.release();
    this.clearEndedTimer();
  }

  /** Subscribes to (or leaves) the `call:*` and `subtitle` events of the session's socket. */
  private listen(on: boolean): void {
    const events = this.options.socket.socket;
    const subscribe = on ? events.on.bind(events) : events.off.bind(events);
    subscribe('call:incoming', this.onIncoming);
    subscribe('call:accepted', this.onAccepted);
    subscribe('call:rejected', this.onRejected);
    subscribe('call:ended', this.onEnded);
    subscribe('call:signal', this.onSignal);
    subscribe('subtitle', this.onSubtitle);
  }

  // ---- Actions (CallActions)

  readonly startCall = async (userId: string, name: string): Promise<void> => {
    const { socket, devices } = this.options;
    if (!socket.socket.connected) throw new Error(SocketMessages.notConnected);
    if (this.starting || this.isActive()) {
      // The same call asked for twice (a double click) is the call already under way.
      const current = this.starting ? this.startingPeerId : this.state.peerId;
      if (current === userId && this.state.phase !== 'incoming') return;
      throw new Error(CallMessages.busy);
    }
    this.starting = true;
    this.startingPeerId = userId;
    const generation = ++this.generation;
    void this.refreshSubtitlesAvailable();
    const iceServers = this.fetchIceServers();
    let localStream: MediaStream;
    try {
      localStream = await devices.getUserMedia();
    } catch {
      throw new Error(CallMessages.startFailed);
    } finally {
      this.starting = false;
      this.startingPeerId = null;
    }
    if (this.disposed || generation !== this.generation) {
      stopTracks(localStream);
      return;
    }
    this.clearEndedTimer();
    this.set(withPhase({ ...this.freshState(), peerId: userId, peerName: name, localStream }, 'calling'));

    try {
      await socket.request('call:initiate', { to: userId, callerName: this.options.selfName() });
    } catch (error) {
      // Refused by the server ('User is busy', 'You can only call your matches', too many calls, no
      // connection): the call never rang, so nothing is shown as ended; the chat alerts the reason.
      // A call hung up meanwhile (Hang up, sign-out) needs no alert.
      if (generation !== this.generation) return;
      this.reset();
      throw new Error(messageOf(error));
    }
    const servers = await iceServers;
    if (generation !== this.generation || this.disposed) return;
    // The peer starts once the server holds the call, so it relays the offer to the callee.
    this.startPeer(true, localStream, servers);
  };

  readonly answer = async (): Promise<void> => {
    const { socket, devices } = this.options;
    if (this.state.phase !== 'incoming' || !this.state.peerId) return;
    const generation = this.generation;
    const callerId = this.state.peerId;
    const iceServers = this.fetchIceServers();
    let localStream: MediaStream;
    try {
      localStream = await devices.getUserMedia();
    } catch {
      if (generation === this.generation) {
        this.sendQuietly('call:reject', callerId);
        this.reset();
      }
      throw new Error(CallMessages.answerFailed);
    }
    if (this.disposed || generation !== this.generation || this.state.phase !== 'incoming') {
      // The caller hung up while the camera was being granted.
      stopTracks(localStream);
      return;
    }
    this.set(withPhase({ ...this.state, localStream, answeredAt: this.now() }, 'connecting'));
    this.syncRecorder();

    try {
      await socket.request('call:accept', { to: callerId });
    } catch (error) {
      // The call stopped ringing meanwhile (the caller hung up, 30 s passed, another tab answered).
      if (generation === this.generation) this.finish('remote', messageOf(error));
      return;
    }
    const servers = await iceServers;
    if (generation !== this.generation || this.disposed) return;
    this.startPeer(false, localStream, servers);
    const buffered = this.pendingSignals;
    this.pendingSignals = [];
    buffered.forEach((signal) => this.peer?.signal(signal));
  };

  readonly reject = (): void => {
    const { phase, peerId } = this.state;
    if (phase !== 'incoming' || !peerId) return;
    this.sendQuietly('call:reject', peerId);
    this.reset();
  };

  readonly end = (): void => {
    const { phase, peerId } = this.state;
    if (phase === 'incoming') return this.reject();
    if (!peerId || !ACTIVE_PHASES.includes(phase)) return;
    this.sendQuietly('call:end', peerId);
    this.finish('self', null);
  };

  readonly toggleMute = (): void => {
    const { localStream, muted } = this.state;
    if (!localStream) return;
    localStream.getAudioTracks().forEach((track) => (track.enabled = muted));
    this.set({ ...this.state, muted: !muted });
    // A muted member is not transcribed (and silence is not sent to the transcriber).
    this.syncRecorder();
  };

  readonly toggleCamera = (): void => {
    const { localStream, cameraOff } = this.state;
    if (!localStream) return;
    localStream.getVideoTracks().forEach((track) => (track.enabled = cameraOff));
    this.set({ ...this.state, cameraOff: !cameraOff });
  };

  readonly toggleSubtitles = (): void => {
    const { subtitlesAvailable, subtitlesOn, phase } = this.state;
    if (!subtitlesAvailable || !isLiveCall(phase)) return;
    this.set({ ...this.state, subtitlesOn: !subtitlesOn });
    this.syncRecorder();
  };

  // ---- Socket events

  private readonly onIncoming = ({ from, callerName }: ServerEventPayload<'call:incoming'>): void => {
    if (this.starting || this.isActive()) {
      // The active call's member again: a repeated event, not a second call.
      if (this.isActive() && from === this.state.peerId) return;
      // Busy here (the server did not know yet, e.g. our camera was still being granted): the
      // caller hears so now rather than ringing for 30 s.
      this.sendQuietly('call:reject', from);
      return;
    }
    this.clearEndedTimer();
    this.generation++;
    this.set(withPhase({ ...this.freshState(), peerId: from, peerName: callerName }, 'incoming'));
    void this.refreshSubtitlesAvailable();
  };

  private readonly onAccepted = ({ from }: ServerEventPayload<'call:accepted'>): void => {
    if (this.state.phase !== 'calling' || from !== this.state.peerId) return;
    this.set(withPhase({ ...this.state, answeredAt: this.now() }, 'connecting'));
    this.syncRecorder();
  };

  private readonly onRejected = ({ from }: ServerEventPayload<'call:rejected'>): void => {
    if (this.isActive() && from === this.state.peerId) this.finish('remote', null);
  };

  private readonly onEnded = ({ from }: ServerEventPayload<'call:ended'>): void => {
    if (this.isActive() && from === this.state.peerId) this.finish('remote', null);
  };

  private readonly onSignal = ({ from, signal }: ServerEventPayload<'call:signal'>): void => {
    // simple-peer's signals are objects; anything else would make it throw.
    if (!this.isActive() || from !== this.state.peerId || typeof signal !== 'object' || signal === null)
      return;
    if (this.peer) this.peer.signal(signal);
    else if (this.pendingSignals.length < MAX_PENDING_SIGNALS) this.pendingSignals.push(signal);
  };

  private readonly onSubtitle = ({ userId, text }: ServerEventPayload<'subtitle'>): void => {
    if (!this.state.isInCall || userId !== this.state.peerId || !text) return;
    this.addSubtitle(text, 'remote');
  };

  // ---- The peer connection

  private startPeer(initiator: boolean, stream: MediaStream, iceServers: RTCIceServer[]): void {
    let peer: PeerLike;
    try {
      peer = this.options.devices.createPeer({ initiator, stream, iceServers });
    } catch (error) {
      console.warn('The peer connection could not start:', messageOf(error));
      this.hangUpAfterFailure();
      return;
    }
    this.peer = peer;
    const current = () => this.peer === peer;
    peer.on('signal', (signal) => {
      const to = this.state.peerId;
      if (current() && to) this.sendQuietly('call:signal', to, signal);
    });
    peer.on('stream', (remoteStream) => {
      if (!current()) return;
      this.set(
        withPhase(
          { ...this.state, remoteStream, answeredAt: this.state.answeredAt ?? this.now() },
          'in-call',
        ),
      );
    });
    peer.on('error', (error) => {
      if (!current()) return;
      console.warn('The peer connection failed:', messageOf(error));
      this.hangUpAfterFailure();
    });
    peer.on('close', () => {
      if (!current()) return;
      const to = this.state.peerId;
      if (to) this.sendQuietly('call:end', to);
      this.finish('remote', null);
    });
  }

  /** Our side cannot go on: the server is told (so the other side hears of it now) and the call ends. */
  private hangUpAfterFailure(): void {
    const to = this.state.peerId;
    if (to) this.sendQuietly('call:end', to);
    this.finish('remote', PEER_FAILED_MESSAGE);
  }

  private async fetchIceServers(): Promise<RTCIceServer[]> {
    try {
      const { iceServers } = await this.options.calls.getIceServers();
      return iceServers;
    } catch (error) {
      console.warn('ICE servers unavailable, connecting without:', messageOf(error));
      return [];
    }
  }

  // ---- Subtitles

  private async refreshSubtitlesAvailable(): Promise<void> {
    let available = false;
    try {
      available = (await this.options.calls.whisperStatus()).available;
    } catch {
      available = false;
    }
    if (!this.disposed && available !== this.state.subtitlesAvailable) {
      this.set({ ...this.state, subtitlesAvailable: available });
    }
  }

  /** Records while subtitles are on, the member is not muted and the call was answered; stops otherwise. */
  private syncRecorder(): void {
    const { subtitlesOn, muted, isInCall, localStream, peerId } = this.state;
    const audio = localStream?.getAudioTracks() ?? [];
    const wanted = subtitlesOn && !muted && isInCall && audio.length > 0 && peerId !== null;
    if (!wanted) {
      this.stopRecording();
      return;
    }
    if (this.recorder || !peerId) return;
    const generation = this.generation;
    try {
      let recorder: { stop(): void } | null = null;
      recorder = this.options.devices.createRecorder(
        new MediaStream(audio),
        (chunk) => this.transcribe(chunk, peerId, generation),
        (error) => {
          // Only the running recorder's failure counts (a stopped one's late error is moot).
          if (recorder && this.recorder === recorder)
            this.subtitlesFailed('Subtitles stopped recording:', error);
        },
      );
      this.recorder = recorder;
    } catch (error) {
      this.subtitlesFailed('Subtitles could not start recording:', error);
    }
  }

  /** The recorder cannot run: subtitles turn off (the button says so) and the call goes on. */
  private subtitlesFailed(reason: string, error: unknown): void {
    console.warn(reason, messageOf(error));
    this.stopRecording();
    this.set({ ...this.state, subtitlesOn: false });
  }

  private stopRecording(): void {
    this.recorder?.stop();
    this.recorder = null;
    this.transcriptions.forEach((controller) => controller.abort());
    this.transcriptions.clear();
  }

  private transcribe(chunk: Blob, peerId: string, generation: number): void {
    if (generation !== this.generation || !this.recorder) return;
    const controller = new AbortController();
    this.transcriptions.add(controller);
    const result = this.options.calls.transcribe(chunk, { signal: controller.signal });
    // Awaited below in chunk order; marked handled now so a failure waiting its turn is not reported as unhandled.
    result.catch(() => undefined);
    this.subtitleOrder = this.subtitleOrder
      .then(async () => {
        const text = (await result).text.trim().slice(0, SUBTITLE_MAX_LENGTH);
        if (!text || controller.signal.aborted || generation !== this.generation) return;
        this.addSubtitle(text, 'local');
        try {
          await this.options.socket.request('subtitle', { recipientId: peerId, text });
        } catch (error) {
          console.warn('The subtitle was not sent:', messageOf(error));
        }
      })
      .catch((error: unknown) => {
        // Spec 000 §4: only logged; the call and the recording go on. Never the audio or its text.
        if (!controller.signal.aborted) console.warn('Transcription failed:', messageOf(error));
      })
      .finally(() => this.transcriptions.delete(controller));
  }

  private addSubtitle(text: string, speaker: SubtitleLine['speaker']): void {
    const timestamp = this.now();
    const line: SubtitleLine = { id: `${timestamp}-${++this.lineCount}`, text, speaker, timestamp };
    this.set({ ...this.state, subtitles: [...this.state.subtitles, line].slice(-SUBTITLES_SHOWN) });
  }

  // ---- Ending and cleanup

  /** The call is over: everything released, `ended` shown for ENDED_STATE_MS, then idle. */
  private finish(endedBy: 'self' | 'remote', error: string | null): void {
    if (!this.isActive()) return;
    const { peerId, peerName } = this.state;
    this.release();
    this.set(withPhase({ ...this.freshState(), peerId, peerName, endedBy, error }, 'ended'));
    this.endedTimer = setTimeout(() => {
      this.endedTimer = null;
      if (this.state.phase === 'ended') this.set(this.freshState());
    }, ENDED_STATE_MS);
  }

  /** Back to idle at once (a declined or failed answer needs no 'ended'). */
  private reset(): void {
    this.release();
    this.set(this.freshState());
  }

  /** Stops every track, the peer, the recorder and pending transcriptions; older async work is void. */
  private release(): void {
    this.generation++;
    this.stopRecording();
    this.subtitleOrder = Promise.resolve();
    this.pendingSignals = [];
    const peer = this.peer;
    this.peer = null;
    peer?.destroy();
    stopTracks(this.state.localStream);
    stopTracks(this.state.remoteStream);
  }

  private clearEndedTimer(): void {
    if (this.endedTimer) clearTimeout(this.endedTimer);
    this.endedTimer = null;
  }

  // ---- Helpers

  private isActive(): boolean {
    return ACTIVE_PHASES.includes(this.state.phase);
  }

  /** IDLE_CALL_STATE, keeping what belongs to the session rather than the call. */
  private freshState(): CallState {
    return { ...IDLE_CALL_STATE, subtitlesAvailable: this.state.subtitlesAvailable };
  }

  /** A signalling event whose refusal changes nothing here (the call is ending, or a signal raced it). */
  private sendQuietly(event: 'call:reject' | 'call:end', to: string): void;
  private sendQuietly(event: 'call:signal', to: string, signal: unknown): void;
  private sendQuietly(event: 'call:reject' | 'call:end' | 'call:signal', to: string, signal?: unknown): void {
    const sent =
      event === 'call:signal'
        ? this.options.socket.request(event, { to, signal })
        : this.options.socket.request(event, { to });
    sent.catch((error: unknown) => {
      if (event === 'call:signal') console.warn('A call signal was not delivered:', messageOf(error));
    });
  }

  private set(state: CallState): void {
    this.state = state;
    if (!this.disposed) this.options.onChange(state);
  }
}
