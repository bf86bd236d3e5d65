import { CallMessages } from '@mate/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../app/AppRoutes';
import { signedInApi, type FakeApi } from '../../testing/fake-api';
import { fakeCall, type FakeCall } from '../../testing/fake-call';
import { renderWithApp } from '../../testing/render';

// The live call comes from a fake CallContext value (testing/fake-call.ts), standing in for the
// CallProvider and the browser's media behind it.

const SAM = 'u1';
const location = () => screen.getByTestId('location').textContent;
const overlay = () => screen.getByRole('dialog', { name: 'Incoming Video Call' });

describe('IncomingCallOverlay', () => {
  let api: FakeApi;
  let call: FakeCall;

  beforeEach(() => {
    api = signedInApi();
    api.matching.getMatchStats.mockResolvedValue({ matches: 1, likesReceived: 0, likesSent: 0 });
    api.profile.getCompletion.mockResolvedValue({ percentage: 100 });
    call = fakeCall();
  });

  async function onDashboard() {
    renderWithApp(api, { route: '/dashboard', children: call.wrap(<AppRoutes />) });
    await screen.findByRole('navigation', { name: 'Main' });
  }

  const ring = () => call.set({ phase: 'incoming', peerId: SAM, peerName: 'Sam' });

  it("opens over the screen while a call rings: 'Incoming Video Call', 'Sam is calling you...', Reject and Answer", async () => {
    await onDashboard();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    ring();
    expect(overlay()).toHaveAccessibleDescription('Sam is calling you...');
    expect(
      within(overlay())
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Reject', 'Answer']);
    expect(within(overlay()).getByRole('button', { name: 'Answer' })).toHaveFocus();
    expect(location()).toBe('/dashboard');
  });

  it('answers and opens the call screen for the caller', async () => {
    await onDashboard();
    ring();
    await userEvent.click(within(overlay()).getByRole('button', { name: 'Answer' }));
    expect(call.actions.answer).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(location()).toBe(`/call/${SAM}`));
    expect(await screen.findByRole('heading', { name: 'Connecting...', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('alerts the answer failure and stays where it is (the provider has already rejected the call)', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    call.actions.answer.mockImplementation(async () => {
      call.set({ phase: 'idle', peerId: null, peerName: null });
      throw new Error(CallMessages.answerFailed);
    });
    await onDashboard();
    ring();
    await userEvent.click(within(overlay()).getByRole('button', { name: 'Answer' }));
    await waitFor(() =>
      expect(alert).toHaveBeenCalledWith(
        'Failed to answer call. Please check camera/microphone permissions.',
      ),
    );
    expect(location()).toBe('/dashboard');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('rejects with Reject and closes', async () => {
    await onDashboard();
    ring();
    await userEvent.click(within(overlay()).getByRole('button', { name: 'Reject' }));
    expect(call.actions.reject).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(call.actions.answer).not.toHaveBeenCalled();
    expect(location()).toBe('/dashboard');
  });

  it('neither answers nor rejects on Escape or a tap beside it: only the buttons decide', async () => {
    await onDashboard();
    ring();
    const user = userEvent.setup();
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('dialog-backdrop'));
    expect(overlay()).toBeInTheDocument();
    expect(call.actions.reject).not.toHaveBeenCalled();
    expect(call.actions.answer).not.toHaveBeenCalled();
  });

  it('closes when the caller gives up', async () => {
    await onDashboard();
    ring();
    expect(overlay()).toBeInTheDocument();
    call.set({ phase: 'ended', endedBy: 'remote' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(location()).toBe('/dashboard');
  });
});
