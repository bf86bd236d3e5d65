import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { aUser, signedInApi, type FakeApi } from '../testing/fake-api';
import { fakeChat, type FakeChat } from '../testing/fake-chat';
import { renderWithApp } from '../testing/render';

const messagesLink = () =>
  within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: /^Messages/ });

describe('the unread count in the navigation', () => {
  let api: FakeApi;
  let chat: FakeChat;
  beforeEach(() => {
    api = signedInApi();
    chat = fakeChat(api, aUser().id);
    api.matching.getMatchStats.mockResolvedValue({ matches: 2, likesReceived: 0, likesSent: 2 });
    api.profile.getCompletion.mockResolvedValue({ percentage: 50 });
    api.profile.getUserProfile.mockRejectedValue(new Error('not needed'));
  });

  it('shows the unread count on Messages, counts a message arriving live, and clears when the chat is read', async () => {
    chat.match({ id: 'u1', name: 'Sam' }, [
      { from: 'them', content: 'one' },
      { from: 'them', content: 'two' },
    ]);
    chat.match({ id: 'u2', name: 'Kit' });
    renderWithApp(api, { route: '/dashboard', realtime: chat.realtime });

    await waitFor(() => expect(messagesLink()).toHaveAccessibleName('Messages 2 unread messages'));
    expect(within(messagesLink()).getByText('2')).toBeInTheDocument();

    chat.receive('u2', 'hello from Kit');
    await waitFor(() => expect(messagesLink()).toHaveAccessibleName('Messages 3 unread messages'));

    await userEvent.click(messagesLink());
    await userEvent.click(await screen.findByRole('link', { name: /Sam/ }));
    await screen.findByText('two');
    await waitFor(() => expect(messagesLink()).toHaveAccessibleName('Messages 1 unread message'));
  }, 15_000);

  it('shows no badge when everything is read', async () => {
    chat.match({ id: 'u1', name: 'Sam' }, [{ from: 'them', content: 'old news', isRead: true }]);
    renderWithApp(api, { route: '/dashboard', realtime: chat.realtime });
    await waitFor(() => expect(api.chat.getUnreadCount).toHaveBeenCalled());
    await screen.findByRole('heading', { name: /Welcome/ });
    expect(messagesLink()).toHaveAccessibleName('Messages');
    expect(screen.queryByText(/unread message/)).not.toBeInTheDocument();
  });
});
