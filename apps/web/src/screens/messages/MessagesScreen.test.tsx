import { ApiError } from '@mate/api-client';
import { ChatMessages, type ConversationSummaryDto } from '@mate/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { aUser, signedInApi, type FakeApi } from '../../testing/fake-api';
import { fakeChat } from '../../testing/fake-chat';
import { renderWithApp } from '../../testing/render';

const selfId = aUser().id;
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

const aSummary = (overrides: Partial<ConversationSummaryDto>): ConversationSummaryDto => ({
  userId: 'u1',
  userName: 'Sam',
  profilePicture: null,
  unreadCount: 0,
  lastMessage: null,
  lastMessageTime: minutesAgo(1),
  lastMessageSenderId: null,
  lastSeq: 0,
  matchedAt: minutesAgo(60),
  ...overrides,
});

const rows = () => within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('link');

describe('MessagesScreen (/matches)', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = signedInApi();
  });

  it("lists each match: picture or initial, unread badge, name or 'Unknown User', relative time, last message or 'Start a conversation'", async () => {
    api.chat.getConversations.mockResolvedValue([
      aSummary({
        userId: 'u1',
        userName: 'Sam',
        profilePicture: '/api/photos/files/p1/large.webp',
        unreadCount: 3,
        lastMessage: 'See you at 8?',
        lastMessageTime: minutesAgo(5),
        lastSeq: 4,
      }),
      aSummary({
        userId: 'u2',
        userName: null,
        lastMessage: 'hello',
        lastMessageTime: minutesAgo(3 * 60),
        lastSeq: 1,
      }),
      aSummary({ userId: 'u3', userName: 'Kit', lastMessageTime: minutesAgo(2 * 24 * 60) }),
    ]);
    renderWithApp(api, { route: '/matches' });

    expect(await screen.findByRole('heading', { name: 'Messages', level: 1 })).toBeInTheDocument();
    const [sam, unknown, kit] = await waitFor(rows);
    expect(within(sam).getByRole('img', { name: 'Sam' })).toHaveAttribute(
      'src',
      'http://api.test/api/photos/files/p1/thumb.webp',
    );
    expect(within(sam).getByText('3 unread messages')).toBeInTheDocument();
    expect(sam).toHaveTextContent('Sam');
    expect(sam).toHaveTextContent('5m ago');
    expect(sam).toHaveTextContent('See you at 8?');
    expect(sam).toHaveAttribute('href', '/chat/u1');

    // No picture: the first letter of the name; no name: 'Unknown User'.
    expect(within(unknown).getByRole('img', { name: 'Unknown User' })).toHaveTextContent('U');
    expect(unknown).toHaveTextContent('3h ago');
    expect(within(unknown).queryByText(/unread/)).not.toBeInTheDocument();

    expect(within(kit).getByRole('img', { name: 'Kit' })).toHaveTextContent('K');
    expect(kit).toHaveTextContent('2d ago');
    expect(kit).toHaveTextContent('Start a conversation');
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it("loads the pictures of a phone's first screen of rows at once, the ones further down as the list scrolls", async () => {
    api.chat.getConversations.mockResolvedValue(
      Array.from({ length: 10 }, (_, i) =>
        aSummary({ userId: `u${i}`, userName: `Member ${i}`, profilePicture: `/api/photos/files/p${i}/large.webp` }),
      ),
    );
    renderWithApp(api, { route: '/matches' });
    const pictures = (await waitFor(rows)).map((row) => within(row).getByRole('img'));
    expect(pictures).toHaveLength(10);
    expect(pictures.map((picture) => picture.getAttribute('loading'))).toEqual([
      ...Array<null>(8).fill(null),
      'lazy',
      'lazy',
    ]);
    expect(pictures[9]).toHaveAttribute('src', 'http://api.test/api/photos/files/p9/thumb.webp');
  });

  it('opens the chat of the row clicked', async () => {
    api.chat.getConversations.mockResolvedValue([aSummary({ userId: 'u7', userName: 'Robin' })]);
    renderWithApp(api, { route: '/matches' });
    await userEvent.click(await screen.findByRole('link', { name: /Robin/ }));
    expect(screen.getByTestId('location')).toHaveTextContent('/chat/u7');
  });

  it("shows 'No matches yet' with a Discover Matches button when there is no match", async () => {
    api.chat.getConversations.mockResolvedValue([]);
    renderWithApp(api, { route: '/matches' });
    expect(await screen.findByRole('heading', { name: 'No matches yet' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Discover Matches' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/discover');
  });

  it("shows a spinner while loading, then 'Failed to load conversations' with Try Again", async () => {
    let fail: (error: Error) => void = () => undefined;
    const pending = new Promise<never>((_resolve, reject) => (fail = reject));
    // The screen handles the failure (asserted below); a read that React Query abandoned on a slow
    // machine must not leave the rejection unhandled and fail the whole run.
    pending.catch(() => undefined);
    api.chat.getConversations.mockReturnValueOnce(pending);
    renderWithApp(api, { route: '/matches' });
    expect(await screen.findByText('Loading conversations...')).toBeInTheDocument();
    fail(new ApiError(ChatMessages.conversationsFailed, 500));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load conversations');

    api.chat.getConversations.mockResolvedValue([aSummary({ userName: 'Sam' })]);
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('link', { name: /Sam/ })).toBeInTheDocument();
  });

  it('moves a conversation to the top and counts it unread when a message arrives live', async () => {
    const chat = fakeChat(api, selfId);
    chat.match({ id: 'u1', name: 'Sam' }, [{ from: 'them', content: 'first', isRead: true }]);
    chat.match({ id: 'u2', name: 'Kit' }, [{ from: 'them', content: 'newest', isRead: true }]);
    renderWithApp(api, { route: '/matches', realtime: chat.realtime });
    await waitFor(() =>
      expect(rows().map((row) => row.getAttribute('href'))).toEqual(['/chat/u2', '/chat/u1']),
    );

    // The answer to the refetch is held back: the row moves on the pushed message alone.
    let answer: (value: ConversationSummaryDto[]) => void = () => undefined;
    api.chat.getConversations.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const message = chat.receive('u1', 'are you free tonight?');
    await waitFor(() =>
      expect(rows().map((row) => row.getAttribute('href'))).toEqual(['/chat/u1', '/chat/u2']),
    );
    expect(rows()[0]).toHaveTextContent('are you free tonight?');
    expect(within(rows()[0]).getByText('1 unread message')).toBeInTheDocument();

    // The list read again agrees, and the same message pushed twice counts once.
    answer([
      aSummary({
        userId: 'u1',
        userName: 'Sam',
        unreadCount: 1,
        lastMessage: message.content,
        lastMessageTime: message.createdAt,
        lastSeq: 2,
      }),
      aSummary({ userId: 'u2', userName: 'Kit', lastMessage: 'newest', lastSeq: 1 }),
    ]);
    chat.socket().socket.emit('new_message', message);
    await waitFor(() => expect(within(rows()[0]).getByText('1 unread message')).toBeInTheDocument());
    expect(api.chat.getConversations.mock.calls.length).toBeGreaterThanOrEqual(2);
  });
});
