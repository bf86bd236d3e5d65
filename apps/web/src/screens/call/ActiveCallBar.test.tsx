import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useNavigate } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../app/AppRoutes';
import type { CallState } from '../../call/call-types';
import { signedInApi, type FakeApi } from '../../testing/fake-api';
import { fakeCall, type FakeCall } from '../../testing/fake-call';
import { renderWithApp } from '../../testing/render';

// The live call comes from a fake CallContext value (testing/fake-call.ts); the shell and the
// screens around it are the app's own.

const SAM = 'u1';
const location = () => screen.getByTestId('location').textContent;
const bar = () => screen.queryByRole('region', { name: 'Ongoing call' });

/** The browser's back button (the in-memory router has none of its own). */
function BrowserBack() {
  const navigate = useNavigate();
  return (
    <button type="button" data-testid="browser-back" onClick={() => void navigate(-1)}>
      browser back
    </button>
  );
}

describe('the bar of a live call the member has left (AppShell)', () => {
  let api: FakeApi;
  let call: FakeCall;

  beforeEach(() => {
    api = signedInApi();
  });

  function open(state: Partial<CallState>, route: string, history: string[] = []) {
    call = fakeCall(state);
    renderWithApp(api, {
      route,
      history,
      children: call.wrap(
        <>
          <AppRoutes />
          <BrowserBack />
        </>,
      ),
    });
  }

  it("says 'In call with {name}' on another screen, returns to the call, and hangs up with 'Hang up'", async () => {
    open({ phase: 'in-call', peerId: SAM, peerName: 'Sam', answeredAt: Date.now() }, '/dashboard');
    const region = await screen.findByRole('region', { name: 'Ongoing call' });
    expect(within(region).getByRole('status')).toHaveTextContent('In call with Sam');
    expect(within(region).queryByRole('button', { name: 'End call' })).not.toBeInTheDocument();

    await userEvent.click(within(region).getByRole('link', { name: 'Return to call' }));
    expect(location()).toBe(`/call/${SAM}`);
    expect(await screen.findByRole('heading', { name: 'In call with Sam', level: 1 })).toBeInTheDocument();
    // On the call's own screen the bar is not needed.
    expect(bar()).not.toBeInTheDocument();
    expect(call.actions.end).not.toHaveBeenCalled();
  });

  it("says 'Calling {name}...' while it rings, and 'Hang up' ends the call where the member is", async () => {
    open({ phase: 'calling', peerId: SAM, peerName: 'Sam' }, '/matches');
    const region = await screen.findByRole('region', { name: 'Ongoing call' });
    expect(within(region).getByRole('status')).toHaveTextContent('Calling Sam...');

    await userEvent.click(within(region).getByRole('button', { name: 'Hang up' }));
    expect(call.actions.end).toHaveBeenCalledTimes(1);
    expect(location()).toBe('/matches');
    expect(bar()).not.toBeInTheDocument();
  });

  it('shows after going back from the call screen with the browser, and not without a live call', async () => {
    open({ phase: 'connecting', peerId: SAM, peerName: 'Sam', answeredAt: Date.now() }, `/call/${SAM}`, [
      `/chat/${SAM}`,
    ]);
    await screen.findByRole('heading', { name: 'Connecting...', level: 1 });
    expect(bar()).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('browser-back'));
    await waitFor(() => expect(location()).toBe(`/chat/${SAM}`));
    expect(bar()).toBeInTheDocument();

    call.set({ phase: 'ended', endedBy: 'remote' });
    expect(bar()).not.toBeInTheDocument();
  });
});
