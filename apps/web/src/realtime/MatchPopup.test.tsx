import type { SocketClient } from '@mate/api-client';
import { SWIPE_EXIT_MS, type NewMatchPayload } from '@mate/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PROMPT_QUIET_AFTER_MATCH_MS } from '../push/NotificationPrompt';
import { createFakePush } from '../testing/fake-push';
import { aSuggestion, signedInApi, type FakeApi } from '../testing/fake-api';
import { fakeSocketClient, type FakeSocketClient } from '../testing/fake-socket';
import { renderWithApp } from '../testing/render';
import type { SocketClientFactory } from './RealtimeContext';

const aNewMatch = (id: string, name: string): NewMatchPayload => ({
  matchId: `match-${id}`,
  user: { id, name, profilePicture: `/api/photos/files/${id}/large.webp` },
  matchedAt: '2026-11-23T00:00:00.000Z',
});

describe("the new_match popup ('It's a Match!' for the other side of a mutual like)", () => {
  let api: FakeApi;
  let clients: FakeSocketClient[];
  let realtime: SocketClientFactory;

  beforeEach(() => {
    api = signedInApi();
    api.profile.getCompletion.mockResolvedValue({ percentage: 60 });
    api.matching.getMatchStats.mockResolvedValue({ matches: 0, likesReceived: 0, likesSent: 0 });
    clients = [];
    realtime = ({ getToken, onSessionEnded }) => {
      const client = fakeSocketClient(getToken, onSessionEnded);
      clients.push(client);
      return client as unknown as SocketClient;
    };
  });

  /** Opens `route` signed in, with the realtime channel connected. */
  async function openConnected(route: string) {
    renderWithApp(api, { route, realtime });
    await waitFor(() => expect(clients).toHaveLength(1));
    act(() => clients[0].serverConnects());
  }

  const pushMatch = (payload: NewMatchPayload) =>
    act(() => void clients[0].socket.emit('new_match', payload));

  it('opens on any screen with the other member, and Send Message goes to /chat/{id}', async () => {
    const user = userEvent.setup();
    await openConnected('/dashboard');
    await screen.findByRole('heading', { name: 'Welcome, Ada!' });
    pushMatch(aNewMatch('u9', 'Bea'));

    const dialog = screen.getByRole('dialog', { name: "It's a Match!" });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription('You and Bea like each other.');
    // An 80 px avatar: the 200 px file, the 600 px one offered for a 3x screen.
    const picture = within(dialog).getByRole('img', { name: 'Bea' });
    expect(picture).toHaveAttribute('src', 'http://api.test/api/photos/files/u9/thumb.webp');
    expect(picture).toHaveAttribute(
      'srcset',
      'http://api.test/api/photos/files/u9/thumb.webp 200w, http://api.test/api/photos/files/u9/medium.webp 600w, http://api.test/api/photos/files/u9/large.webp 1200w',
    );
    expect(picture).toHaveAttribute('sizes', '100px');
    await user.click(within(dialog).getByRole('button', { name: 'Send Message' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/chat/u9');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps the notification prompt off the chat Send Message opens for a minute', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderWithApp(api, { route: '/dashboard', realtime, push: createFakePush().browser });
      await waitFor(() => expect(clients).toHaveLength(1));
      act(() => clients[0].serverConnects());
      await screen.findByRole('heading', { name: 'Welcome, Ada!' });
      pushMatch(aNewMatch('u9', 'Bea'));
      await user.click(within(screen.getByRole('dialog', { name: "It's a Match!" })).getByRole('button', { name: 'Send Message' }));

      const prompt = () => screen.queryByRole('region', { name: 'Enable Notifications' });
      await act(() => vi.advanceTimersByTimeAsync(PROMPT_QUIET_AFTER_MATCH_MS - 1_000));
      expect(prompt()).not.toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(1_000));
      expect(prompt()).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows matches that arrive together one after the other, and each member once', async () => {
    const user = userEvent.setup();
    await openConnected('/dashboard');
    await screen.findByRole('heading', { name: 'Welcome, Ada!' });
    pushMatch(aNewMatch('u9', 'Bea'));
    pushMatch(aNewMatch('u8', 'Cy'));
    pushMatch(aNewMatch('u9', 'Bea'));

    expect(screen.getByRole('dialog')).toHaveAccessibleDescription('You and Bea like each other.');
    await user.click(screen.getByRole('button', { name: 'Keep Swiping' }));
    expect(screen.getByRole('dialog')).toHaveAccessibleDescription('You and Cy like each other.');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard');
  });

  it('opens once when the liker gets both the matched answer and the event', async () => {
    const user = userEvent.setup();
    api.matching.getSuggestions.mockResolvedValue([aSuggestion(9, { name: 'Bea' }), aSuggestion(2)]);
    api.matching.like.mockResolvedValue({ matched: true, matchId: 'match-u9' });
    await openConnected('/discover');
    await screen.findByRole('article', { name: 'Bea, 30' });
    pushMatch(aNewMatch('u9', 'Bea'));
    await user.click(screen.getByRole('button', { name: 'Keep Swiping' }));

    await user.click(screen.getByRole('button', { name: 'Like' }));
    // After the card's 300 ms exit, a real timer: allow a busy CI machine far more than that.
    await screen.findByRole('article', { name: 'Member 2, 30' }, { timeout: SWIPE_EXIT_MS * 20 });
    expect(api.matching.like).toHaveBeenCalledWith('u9');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('stops listening when the member signs out', async () => {
    await openConnected('/dashboard');
    await screen.findByRole('heading', { name: 'Welcome, Ada!' });
    // The popup listens, and so do the conversation list (a new match is a new row) and the home.
    expect(clients[0].socket.listenerCount('new_match')).toBe(3);
    api.auth.logout.mockResolvedValue(undefined);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(clients[0].disconnect).toHaveBeenCalled());
    expect(clients[0].socket.listenerCount('new_match')).toBe(0);
  });
});
