import type { MateApi, SocketClient } from '@mate/api-client';
import { QueryClient } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../app/App';
import { useAuth, type AuthContextValue } from '../auth/AuthContext';
import {
  aProfile,
  aUser,
  anAuthResponse,
  createFakeApi,
  storeSession,
  type FakeApi,
} from '../testing/fake-api';
import { fakeSocketClient, type FakeSocketClient } from '../testing/fake-socket';
import { useRealtime, type RealtimeContextValue, type SocketClientFactory } from './RealtimeContext';

let auth: AuthContextValue;
let realtime: RealtimeContextValue;
function Probe() {
  auth = useAuth();
  realtime = useRealtime();
  return null;
}

async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe('RealtimeProvider', () => {
  let api: FakeApi;
  let clients: FakeSocketClient[];
  let factory: SocketClientFactory;

  beforeEach(() => {
    api = createFakeApi();
    clients = [];
    factory = ({ getToken, onSessionEnded }) => {
      const client = fakeSocketClient(getToken, onSessionEnded);
      clients.push(client);
      return client as unknown as SocketClient;
    };
  });

  function mount() {
    render(
      <AppProviders api={api as unknown as MateApi} queryClient={new QueryClient()} realtime={factory}>
        <Probe />
      </AppProviders>,
    );
  }

  it('does not connect while signed out', async () => {
    mount();
    await settle();
    expect(clients).toHaveLength(0);
    expect(realtime).toEqual({ client: null, connected: false });
  });

  it('connects with the session token once sign-in is done, and exposes the live client', async () => {
    api.auth.login.mockResolvedValue(anAuthResponse(aUser(), 'jwt-1'));
    api.profile.getMyProfile.mockResolvedValue(aProfile());
    mount();
    await settle();
    await act(() => auth.login({ email: 'ada@example.com', password: 'password1' }));
    expect(clients).toHaveLength(1);
    expect(clients[0].connect).toHaveBeenCalledTimes(1);
    expect(clients[0].token()).toBe('jwt-1');
    act(() => clients[0].serverConnects());
    expect(realtime.connected).toBe(true);
    expect(realtime.client).toBe(clients[0]);
  });

  it('connects after start-up only once the stored token was confirmed by the server', async () => {
    storeSession(aUser());
    let answer: (value: unknown) => void = () => undefined;
    api.auth.me.mockReturnValue(new Promise((resolve) => (answer = resolve)) as never);
    api.profile.getMyProfile.mockResolvedValue(aProfile());
    mount();
    await settle();
    expect(clients).toHaveLength(0);
    answer(aUser());
    await settle();
    expect(clients).toHaveLength(1);
    expect(clients[0].connect).toHaveBeenCalled();
  });

  it('waits for a verified address (the gateway refuses unverified handshakes), then connects', async () => {
    api.auth.login.mockResolvedValue(anAuthResponse(aUser({ isVerified: false }), 'jwt-1'));
    api.profile.getMyProfile.mockResolvedValue(aProfile({ isVerified: false }));
    mount();
    await settle();
    await act(() => auth.login({ email: 'ada@example.com', password: 'password1' }));
    expect(clients).toHaveLength(0);

    // Verified on another device; the verify-email prompt refreshes the profile.
    api.profile.getMyProfile.mockResolvedValue(aProfile({ isVerified: true }));
    await act(() => auth.refreshProfile());
    expect(clients).toHaveLength(1);
    expect(clients[0].connect).toHaveBeenCalledTimes(1);
    expect(clients[0].token()).toBe('jwt-1');
  });

  it('disconnects on sign-out', async () => {
    api.auth.login.mockResolvedValue(anAuthResponse(aUser(), 'jwt-1'));
    api.auth.logout.mockResolvedValue(undefined);
    api.profile.getMyProfile.mockResolvedValue(aProfile());
    mount();
    await settle();
    await act(() => auth.login({ email: 'ada@example.com', password: 'password1' }));
    act(() => clients[0].serverConnects());
    await act(() => auth.logout());
    expect(clients[0].disconnect).toHaveBeenCalledTimes(1);
    expect(realtime).toEqual({ client: null, connected: false });
  });

  it('signs out when the server ends the session behind the socket', async () => {
    api.auth.login.mockResolvedValue(anAuthResponse(aUser(), 'jwt-1'));
    api.profile.getMyProfile.mockResolvedValue(aProfile());
    mount();
    await settle();
    await act(() => auth.login({ email: 'ada@example.com', password: 'password1' }));
    act(() => clients[0].endSession('revoked'));
    expect(auth.token).toBeNull();
    expect(auth.user).toBeNull();
    expect(clients[0].disconnect).toHaveBeenCalled();
  });
});
