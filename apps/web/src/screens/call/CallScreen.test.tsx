import { CALL_END_REDIRECT_MS, type SubtitleLine } from '@mate/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../app/AppRoutes';
import { PEER_FAILED_MESSAGE } from '../../call/call-engine';
import type { CallState } from '../../call/call-types';
import { signedInApi, type FakeApi } from '../../testing/fake-api';
import { fakeCall, fakeMediaStream, type FakeCall } from '../../testing/fake-call';
import { renderWithApp } from '../../testing/render';

// The live call comes from a fake CallContext value (testing/fake-call.ts): the CallProvider's own
// tests cover the media, the peer and the signalling; these cover what the member sees and presses.

const SAM = 'u1';
const location = () => screen.getByTestId('location').textContent;
const title = () => screen.getByRole('heading', { level: 1 });
const timer = () => screen.getByRole('timer', { name: 'Call duration' });

const line = (id: string, speaker: SubtitleLine['speaker'], text: string): SubtitleLine => ({
  id,
  speaker,
  text,
  timestamp: Date.now(),
});

describe('CallScreen (/call/{userId})', () => {
  let api: FakeApi;
  let call: FakeCall;

  beforeEach(() => {
    api = signedInApi();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  async function openCall(state: Partial<CallState>, userId = SAM) {
    call = fakeCall(state);
    renderWithApp(api, { route: `/call/${userId}`, children: call.wrap(<AppRoutes />) });
    await screen.findByRole('heading', { level: 1 });
  }

  it("titles the call by its phase: 'Calling Sam...', 'Connecting...', 'In call with Sam'", async () => {
    await openCall({ phase: 'calling', peerId: SAM, peerName: 'Sam' });
    expect(title()).toHaveTextContent('Calling Sam...');
    // Set by an effect, which a busy machine may run after the heading is already there.
    await waitFor(() => expect(document.title).toBe('Calling Sam... · Mate'));
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');

    call.set({ phase: 'connecting', answeredAt: Date.now() });
    expect(title()).toHaveTextContent('Connecting...');

    call.set({ phase: 'in-call', remoteStream: fakeMediaStream('remote') });
    expect(title()).toHaveTextContent('In call with Sam');
    expect(location()).toBe(`/call/${SAM}`);
  });

  it('shows 00:00 before the answer, then the time since the answer as mm:ss, ticking each second', async () => {
    await openCall({ phase: 'calling', peerId: SAM, peerName: 'Sam' });
    expect(timer()).toHaveTextContent('00:00');

    call.set({ phase: 'in-call', answeredAt: Date.now() - 65_000 });
    expect(timer()).toHaveTextContent(/^01:0[56]$/);
    await waitFor(() => expect(timer()).toHaveTextContent('01:06'));
    await waitFor(() => expect(timer()).toHaveTextContent('01:07'));
  });

  it('plays the remote stream full size and the own camera muted and mirrored', async () => {
    const local = fakeMediaStream('local');
    const remote = fakeMediaStream('remote');
    await openCall({ phase: 'calling', peerId: SAM, peerName: 'Sam', localStream: local });
    const remoteVideo = screen.getByLabelText('Remote video') as HTMLVideoElement;
    const ownVideo = screen.getByLabelText('Your camera') as HTMLVideoElement;
    await waitFor(() => expect(ownVideo.srcObject).toBe(local));
    expect(ownVideo.muted).toBe(true);
    expect(ownVideo.style.transform).toBe('scaleX(-1)');
    expect(ownVideo).toHaveAttribute('playsinline');
    expect(remoteVideo.muted).toBe(false);
    expect(remoteVideo.srcObject ?? null).toBeNull();

    call.set({ phase: 'in-call', answeredAt: Date.now(), remoteStream: remote });
    expect(remoteVideo.srcObject).toBe(remote);
    expect(remoteVideo.style.transform).toBe('');
  });

  it('mutes, turns the camera off and shows subtitles through the call, each button saying what it will do next', async () => {
    await openCall({
      phase: 'in-call',
      peerId: SAM,
      peerName: 'Sam',
      answeredAt: Date.now(),
      subtitlesAvailable: true,
    });
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Mute' }));
    expect(call.actions.toggleMute).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(call.actions.toggleMute).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('button', { name: 'Mute' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Turn camera off' }));
    expect(call.actions.toggleCamera).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Turn camera on' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show subtitles' }));
    expect(call.actions.toggleSubtitles).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Hide subtitles' }));
    expect(call.actions.toggleSubtitles).toHaveBeenCalledTimes(2);
    expect(call.actions.end).not.toHaveBeenCalled();
  });

  it('offers no subtitle button when transcription is not available', async () => {
    await openCall({ phase: 'in-call', peerId: SAM, peerName: 'Sam', subtitlesAvailable: false });
    expect(screen.getByRole('button', { name: 'Mute' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'End call' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /subtitles/ })).not.toBeInTheDocument();
  });

  it("shows the subtitles the call keeps (the last 3), labelled 'You' and 'Them'", async () => {
    await openCall({
      phase: 'in-call',
      peerId: SAM,
      peerName: 'Sam',
      subtitlesAvailable: true,
      subtitlesOn: true,
    });
    const subtitles = screen.getByRole('log', { name: 'Subtitles' });
    expect(within(subtitles).queryAllByRole('listitem')).toHaveLength(0);

    call.set({
      subtitles: [line('s1', 'local', 'Hello there'), line('s2', 'remote', 'Hi! Can you hear me?')],
    });
    call.set({
      subtitles: [
        line('s2', 'remote', 'Hi! Can you hear me?'),
        line('s3', 'local', 'Loud and clear'),
        line('s4', 'remote', 'Great'),
      ],
    });
    expect(
      within(subtitles)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Them: Hi! Can you hear me?', 'You: Loud and clear', 'Them: Great']);
  });

  it('hangs up with End call and goes to /dashboard at once', async () => {
    await openCall({ phase: 'in-call', peerId: SAM, peerName: 'Sam', answeredAt: Date.now() });
    vi.useFakeTimers();
    act(() => screen.getByRole('button', { name: 'End call' }).click());
    expect(call.actions.end).toHaveBeenCalledTimes(1);
    // No waiting on the 500 ms of a call ended by the other member.
    expect(location()).toBe('/dashboard');
  });

  it.each(['calling', 'connecting', 'in-call'] as const)(
    'ends a live call (%s) when leaving with Back to Dashboard, as End does',
    async (phase) => {
      await openCall({ phase, peerId: SAM, peerName: 'Sam' });
      await userEvent.click(screen.getByRole('link', { name: 'Back to Dashboard' }));
      expect(call.actions.end).toHaveBeenCalledTimes(1);
      expect(location()).toBe('/dashboard');
    },
  );

  it("says 'Call ended' when the other member hangs up, then goes to /dashboard after 500 ms, not before", async () => {
    await openCall({ phase: 'in-call', peerId: SAM, peerName: 'Sam', answeredAt: Date.now() - 5_000 });
    vi.useFakeTimers();
    call.set({ phase: 'ended', endedBy: 'remote', remoteStream: null, localStream: null });
    expect(title()).toHaveTextContent('Call ended');
    expect(screen.queryByRole('button', { name: 'End call' })).not.toBeInTheDocument();
    expect(timer()).toHaveTextContent(/^00:0[56]$/);

    act(() => {
      vi.advanceTimersByTime(CALL_END_REDIRECT_MS - 1);
    });
    expect(location()).toBe(`/call/${SAM}`);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(location()).toBe('/dashboard');
    expect(call.actions.end).not.toHaveBeenCalled();
  });

  it('shows why a call ended as an alert (the peer connection failed)', async () => {
    await openCall({ phase: 'connecting', peerId: SAM, peerName: 'Sam', answeredAt: Date.now() });
    call.set({ phase: 'ended', endedBy: 'remote', error: PEER_FAILED_MESSAGE });
    expect(title()).toHaveTextContent('Call ended');
    expect(screen.getByRole('alert')).toHaveTextContent(PEER_FAILED_MESSAGE);
    await waitFor(() => expect(location()).toBe('/dashboard'));
  });

  it.each([
    ['no call at all', {}],
    ['a call with another member', { phase: 'in-call', peerId: 'u2', peerName: 'Alex' }],
  ] as const)("says 'Call ended' and goes to /dashboard when opened with %s", async (_, state) => {
    await openCall(state);
    expect(title()).toHaveTextContent('Call ended');
    expect(screen.queryByRole('button', { name: 'End call' })).not.toBeInTheDocument();
    await waitFor(() => expect(location()).toBe('/dashboard'));
    expect(call.actions.end).not.toHaveBeenCalled();
  });
});
