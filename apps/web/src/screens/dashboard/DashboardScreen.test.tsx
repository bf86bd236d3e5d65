import { ApiError, type SocketClient } from '@mate/api-client';
import {
  ChatMessages,
  MatchingMessages,
  type ConversationSummaryDto,
  type LikerDto,
  type MatchDto,
} from '@mate/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SocketClientFactory } from '../../realtime/RealtimeContext';
import {
  aProfile,
  aSuggestion,
  aUser,
  logoutOutcomes,
  signedInApi,
  storedSession,
  type FakeApi,
} from '../../testing/fake-api';
import { fakeSocketClient, type FakeSocketClient } from '../../testing/fake-socket';
import { renderWithApp } from '../../testing/render';

describe('DashboardScreen stats', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = signedInApi();
    api.matching.getMatchStats.mockResolvedValue({ matches: 3, likesReceived: 12, likesSent: 20 });
    api.chat.getConversations.mockResolvedValue([]);
  });

  /** The number under a stat's label (the navigation has a Messages item too). */
  const count = (label: string) =>
    within(screen.getByText(label, { selector: 'dt' }).closest('div') as HTMLElement).getByRole('definition');

  it('shows the real completion from /completion, with a spinner while it loads', async () => {
    let answer: (value: { percentage: number }) => void = () => undefined;
    api.profile.getCompletion.mockReturnValue(
      new Promise((resolve) => {
        answer = resolve;
      }),
    );
    renderWithApp(api, { route: '/dashboard' });
    expect(await screen.findByText('Loading profile completion...')).toBeInTheDocument();
    expect(screen.queryByText('25%')).not.toBeInTheDocument();
    answer({ percentage: 70 });
    expect(await screen.findByText('70%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Profile completion' })).toHaveAttribute(
      'aria-valuenow',
      '70',
    );
  });

  it('shows a dash when the completion cannot be loaded', async () => {
    api.profile.getCompletion.mockRejectedValue(new ApiError('Failed to get profile completion', 500));
    renderWithApp(api, { route: '/dashboard' });
    expect(await screen.findByLabelText('Not available')).toHaveTextContent('—');
  });

  it('shows real Matches and Likes (received) from /api/matches/stats, and Messages: the conversations with a message', async () => {
    api.profile.getCompletion.mockResolvedValue({ percentage: 70 });
    const conversation = (userId: string, lastSeq: number): ConversationSummaryDto => ({
      userId,
      userName: userId,
      profilePicture: null,
      unreadCount: 0,
      lastMessage: lastSeq > 0 ? 'hi' : null,
      lastMessageTime: '2026-11-20T10:00:00.000Z',
      lastMessageSenderId: lastSeq > 0 ? userId : null,
      lastSeq,
      matchedAt: '2026-11-20T09:00:00.000Z',
    });
    // Three matches, two of which have a conversation going.
    api.chat.getConversations.mockResolvedValue([
      conversation('u1', 4),
      conversation('u2', 1),
      conversation('u3', 0),
    ]);
    renderWithApp(api, { route: '/dashboard' });
    expect(await screen.findByText('12')).toBeInTheDocument();
    expect(api.matching.getMatchStats).toHaveBeenCalledTimes(1);
    expect(count('Matches')).toHaveTextContent('3');
    expect(count('Likes')).toHaveTextContent('12');
    await waitFor(() => expect(count('Messages')).toHaveTextContent('2'));
  });

  it('shows a dash for the counts it cannot load, with a spinner while they load', async () => {
    api.profile.getCompletion.mockResolvedValue({ percentage: 70 });
    // Each call's answer waits until the test fails them all: a promise made before the screen asked
    // for it would reject with no one listening yet (an unhandled rejection on a slow machine).
    const waiting: ((error: Error) => void)[] = [];
    let failure: Error | null = null;
    api.matching.getMatchStats.mockImplementation(() =>
      failure ? Promise.reject(failure) : new Promise((_resolve, reject) => void waiting.push(reject)),
    );
    renderWithApp(api, { route: '/dashboard' });
    expect(await screen.findByText('Loading matches...')).toBeInTheDocument();
    expect(screen.getByText('Loading likes...')).toBeInTheDocument();
    await waitFor(() => expect(waiting.length).toBeGreaterThan(0));
    failure = new ApiError(MatchingMessages.matchesFailed, 500);
    for (const reject of waiting) reject(failure);
    await waitFor(() =>
      expect(within(count('Matches')).getByLabelText('Not available')).toHaveTextContent('—'),
    );
    expect(within(count('Likes')).getByLabelText('Not available')).toBeInTheDocument();
    expect(count('Messages')).toHaveTextContent('0');
  });

  it('shows a dash for Messages when the conversations cannot be loaded', async () => {
    api.profile.getCompletion.mockResolvedValue({ percentage: 70 });
    api.chat.getConversations.mockRejectedValue(new ApiError(ChatMessages.conversationsFailed, 500));
    renderWithApp(api, { route: '/dashboard' });
    await waitFor(() =>
      expect(within(count('Messages')).getByLabelText('Not available')).toHaveTextContent('—'),
    );
    expect(count('Matches')).toHaveTextContent('3');
  });
});

/** Spec 000 §1: the header with Sign Out, and the welcome card. */
describe('DashboardScreen header and welcome card', () => {
  let api: FakeApi;
  const stub = (fake: FakeApi) => {
    fake.matching.getMatchStats.mockResolvedValue({ matches: 0, likesReceived: 0, likesSent: 0 });
    fake.chat.getConversations.mockResolvedValue([]);
    fake.profile.getCompletion.mockResolvedValue({ percentage: 40 });
    return fake;
  };
  beforeEach(() => {
    api = stub(signedInApi());
  });

  it("greets the member by name, with the email and the user id's first 8 characters and an ellipsis", async () => {
    renderWithApp(api, { route: '/dashboard' });
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada!' })).toBeInTheDocument();
    expect(screen.getByText('AI-Driven Dating Platform')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com', { selector: 'dd' })).toBeInTheDocument();
    expect(screen.getByText('a1b2c3d4...', { selector: 'dd' })).toBeInTheDocument();
  });

  it("says 'Friend' when the member has no name", async () => {
    api = stub(signedInApi(aProfile({ name: '' }), aUser({ name: '' })));
    renderWithApp(api, { route: '/dashboard' });
    expect(await screen.findByRole('heading', { name: 'Welcome, Friend!' })).toBeInTheDocument();
  });

  it.each(logoutOutcomes)(
    'Sign Out clears the token, the user and the profile and shows the sign-in screen at / (%s)',
    async (_case, arrange) => {
      arrange(api);
      const user = userEvent.setup();
      renderWithApp(api, { route: '/dashboard' });
      await screen.findByRole('heading', { name: 'Welcome, Ada!' });
      const header = screen
        .getByRole('heading', { level: 1, name: 'Mate' })
        .closest('.dashboard__header') as HTMLElement;
      await user.click(within(header).getByRole('button', { name: 'Sign Out' }));

      expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
      expect(api.auth.logout).toHaveBeenCalledTimes(1);
      expect(storedSession()).toEqual([null, null, null]);
      expect(screen.queryByRole('heading', { name: /Welcome, / })).not.toBeInTheDocument();
    },
  );
});

/** Issue 25: the placeholder's cards are gone and the home shows what a member opens the app for. */
describe('DashboardScreen as the home', () => {
  let api: FakeApi;
  let clients: FakeSocketClient[];
  let realtime: SocketClientFactory;

  const aMatch = (n: number, overrides: Partial<MatchDto> = {}): MatchDto => ({
    matchId: `m${n}`,
    userId: `u${n}`,
    name: `Member ${n}`,
    profilePicture: `/api/photos/files/p${n}/large.webp`,
    matchedAt: `2026-11-2${n}T10:00:00.000Z`,
    ...overrides,
  });
  const aLiker = (n: number, overrides: Partial<LikerDto['user']> = {}): LikerDto => {
    const { user, photos } = aSuggestion(n, overrides);
    return { user, photos, likedAt: '2026-11-28T10:00:00.000Z' };
  };
  const aConversation = (n: number, unreadCount: number, lastMessage: string): ConversationSummaryDto => ({
    userId: `u${n}`,
    userName: `Member ${n}`,
    profilePicture: null,
    unreadCount,
    lastMessage,
    lastMessageTime: '2026-11-28T10:00:00.000Z',
    lastMessageSenderId: `u${n}`,
    lastSeq: 3,
    matchedAt: '2026-11-20T09:00:00.000Z',
  });

  beforeEach(() => {
    api = signedInApi();
    api.matching.getMatchStats.mockResolvedValue({ matches: 2, likesReceived: 5, likesSent: 9 });
    api.profile.getCompletion.mockResolvedValue({ percentage: 100 });
    api.chat.getConversations.mockResolvedValue([]);
    api.matching.getMyMatches.mockResolvedValue([]);
    api.matching.likesReceived.mockResolvedValue({ total: 0, likers: [] });
    clients = [];
    realtime = ({ getToken, onSessionEnded }) => {
      const client = fakeSocketClient(getToken, onSessionEnded);
      clients.push(client);
      return client as unknown as SocketClient;
    };
  });

  const section = (name: string) => screen.getByRole('region', { name });

  it("no longer shows 'Coming Soon' or the phase-1 banner, and keeps the header, welcome and stats", async () => {
    renderWithApp(api, { route: '/dashboard' });
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada!' })).toBeInTheDocument();
    expect(screen.queryByText('Coming Soon')).not.toBeInTheDocument();
    expect(screen.queryByText(/Phase 1/)).not.toBeInTheDocument();
    expect(screen.queryByText(/What we're building next/)).not.toBeInTheDocument();
    expect(screen.queryByText('Glass UI')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Mate' })).toBeInTheDocument();
    expect(screen.getByText('AI-Driven Dating Platform')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your Stats' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('5', { selector: 'dd' })).toBeInTheDocument());
  });

  it('leads into Discover with a primary button', async () => {
    const user = userEvent.setup();
    api.matching.getSuggestions.mockResolvedValue([]);
    renderWithApp(api, { route: '/dashboard' });
    const discover = await screen.findByRole('link', { name: 'Discover people' });
    expect(discover).toHaveClass('mate-btn--primary');
    await user.click(discover);
    // Discover's code loads on demand: the move completes once it is there.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/discover$/));
  });

  it('shows new matches newest first with their photo (the initial without one), each opening its chat', async () => {
    const user = userEvent.setup();
    api.matching.getMyMatches.mockResolvedValue([
      aMatch(2, { name: 'Bea' }),
      aMatch(1, { name: 'Cy', profilePicture: null }),
    ]);
    renderWithApp(api, { route: '/dashboard' });
    const links = await within(await screen.findByRole('region', { name: 'New matches' })).findAllByRole(
      'link',
      {
        name: /^Chat with /,
      },
    );
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/chat/u2', '/chat/u1']);
    expect(within(links[0]).getByRole('img', { name: 'Bea' })).toHaveAttribute(
      'src',
      'http://api.test/api/photos/files/p2/thumb.webp',
    );
    expect(within(links[1]).getByRole('img', { name: 'Cy' })).toHaveTextContent('C');
    await user.click(links[0]);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/chat\/u2$/);
  });

  it('says when there are no matches yet and leads to Discover', async () => {
    renderWithApp(api, { route: '/dashboard' });
    const matches = await screen.findByRole('region', { name: 'New matches' });
    expect(await within(matches).findByText(/No matches yet/)).toBeInTheDocument();
    expect(within(matches).getByRole('link', { name: 'Find matches in Discover' })).toHaveAttribute(
      'href',
      '/discover',
    );
  });

  it('shows an error with Try again when matches cannot be loaded, the other sections still there', async () => {
    const user = userEvent.setup();
    api.matching.getMyMatches.mockRejectedValueOnce(new ApiError(MatchingMessages.matchesFailed, 500));
    api.matching.likesReceived.mockResolvedValue({ total: 1, likers: [aLiker(5, { name: 'Dee' })] });
    renderWithApp(api, { route: '/dashboard' });
    const matches = await screen.findByRole('region', { name: 'New matches' });
    expect(await within(matches).findByRole('alert')).toHaveTextContent("Couldn't load your matches.");
    expect(await within(section('Who liked you')).findByText('Dee')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Welcome, Ada!' })).toBeInTheDocument();
    api.matching.getMyMatches.mockResolvedValue([aMatch(1, { name: 'Bea' })]);
    await user.click(within(matches).getByRole('button', { name: 'Try again' }));
    expect(await within(matches).findByRole('link', { name: 'Chat with Bea' })).toBeInTheDocument();
  });

  it('lists who liked you with photo, name and age; Like back makes the match, shows it and takes them off the list', async () => {
    const user = userEvent.setup();
    api.matching.likesReceived.mockResolvedValue({
      total: 2,
      likers: [aLiker(5, { name: 'Dee', age: 27 }), aLiker(6, { name: 'Eli', age: 33 })],
    });
    api.matching.like.mockResolvedValue({ matched: true, matchId: 'm5' });
    renderWithApp(api, { route: '/dashboard' });
    const likes = await screen.findByRole('region', { name: 'Who liked you' });
    expect(await within(likes).findByText('2 people like you')).toBeInTheDocument();
    const dee = within(likes).getByRole('img', { name: 'Dee' });
    expect(dee).toHaveAttribute('src', 'http://api.test/api/photos/files/ph105/thumb.webp');
    expect(dee).toHaveAttribute('srcset', expect.stringContaining('/ph105/medium.webp 600w'));
    expect(dee).toHaveAttribute('sizes', '100px');
    expect(within(likes).getByText(', 27')).toBeInTheDocument();
    expect(api.matching.likesReceived).toHaveBeenCalledWith({ limit: 12, offset: 0 });

    // After the like back the server lists only Eli and holds the new match.
    api.matching.likesReceived.mockResolvedValue({ total: 1, likers: [aLiker(6, { name: 'Eli', age: 33 })] });
    api.matching.getMyMatches.mockResolvedValue([aMatch(5, { name: 'Dee' })]);
    await user.click(within(likes).getByRole('button', { name: 'Like back Dee' }));

    expect(api.matching.like).toHaveBeenCalledWith('u5');
    const dialog = await screen.findByRole('dialog', { name: "It's a Match!" });
    expect(dialog).toHaveAccessibleDescription('You and Dee like each other.');
    await waitFor(() => expect(within(likes).queryByText('Dee')).not.toBeInTheDocument());
    expect(within(likes).getByText('Eli')).toBeInTheDocument();
    expect(
      await within(section('New matches')).findByRole('link', { name: 'Chat with Dee' }),
    ).toHaveAttribute('href', '/chat/u5');
  });

  it('Pass answers a liker with the pass route and takes them off the list; nobody left reads calmly', async () => {
    const user = userEvent.setup();
    api.matching.likesReceived.mockResolvedValue({ total: 1, likers: [aLiker(5, { name: 'Dee' })] });
    api.matching.pass.mockResolvedValue({ passed: true });
    renderWithApp(api, { route: '/dashboard' });
    const likes = await screen.findByRole('region', { name: 'Who liked you' });
    expect(await within(likes).findByText('1 person likes you')).toBeInTheDocument();
    api.matching.likesReceived.mockResolvedValue({ total: 0, likers: [] });
    await user.click(within(likes).getByRole('button', { name: 'Pass on Dee' }));
    expect(api.matching.pass).toHaveBeenCalledWith('u5');
    expect(await within(likes).findByText(/No new likes right now/)).toBeInTheDocument();
    expect(api.matching.like).not.toHaveBeenCalled();
  });

  it('shows why a like back failed, and keeps the liker', async () => {
    const user = userEvent.setup();
    api.matching.likesReceived.mockResolvedValue({ total: 1, likers: [aLiker(5, { name: 'Dee' })] });
    api.matching.like.mockRejectedValue(new ApiError(MatchingMessages.notSuggestible, 400));
    renderWithApp(api, { route: '/dashboard' });
    const likes = await screen.findByRole('region', { name: 'Who liked you' });
    await user.click(await within(likes).findByRole('button', { name: 'Like back Dee' }));
    expect(await within(likes).findByRole('alert')).toHaveTextContent(MatchingMessages.notSuggestible);
    expect(within(likes).getByText('Dee')).toBeInTheDocument();
  });

  it('lists only the conversations with unread messages, each opening its chat, with its count', async () => {
    api.chat.getConversations.mockResolvedValue([
      aConversation(1, 2, 'Are you free Friday?'),
      aConversation(2, 0, 'See you!'),
      aConversation(3, 1, 'Hi Ada'),
    ]);
    renderWithApp(api, { route: '/dashboard' });
    const unread = await screen.findByRole('region', { name: 'Unread messages' });
    const rows = await within(unread).findAllByRole('link', { name: /unread message/ });
    expect(rows.map((row) => row.getAttribute('href'))).toEqual(['/chat/u1', '/chat/u3']);
    expect(rows[0]).toHaveAccessibleName('Member 1 Are you free Friday? 2 unread messages');
    expect(within(unread).queryByText('See you!')).not.toBeInTheDocument();
  });

  it("says 'You're all caught up.' when nothing is unread", async () => {
    api.chat.getConversations.mockResolvedValue([aConversation(2, 0, 'See you!')]);
    renderWithApp(api, { route: '/dashboard' });
    const unread = await screen.findByRole('region', { name: 'Unread messages' });
    expect(await within(unread).findByText("You're all caught up.")).toBeInTheDocument();
  });

  it('lists what would complete the profile, most points first, linking to the profile', async () => {
    api.profile.getCompletion.mockResolvedValue({ percentage: 20 });
    renderWithApp(api, { route: '/dashboard' });
    const checklist = await screen.findByRole('region', { name: 'Complete your profile' });
    expect(
      await within(checklist).findByText('20% done. Complete profiles get more matches.'),
    ).toBeInTheDocument();
    const items = within(checklist).getAllByRole('link');
    expect(items[0]).toHaveTextContent('Add a photo+20%');
    expect(items.map((item) => item.getAttribute('href'))).toEqual(items.map(() => '/profile'));
    expect(within(checklist).getByText('Write a bio of at least 20 characters')).toBeInTheDocument();
    // A short list: the four worth most, then the way to the rest.
    expect(items).toHaveLength(5);
    expect(items[4]).toHaveTextContent('4 more in your profile');
    expect(within(checklist).queryByText('Add your occupation')).not.toBeInTheDocument();
    // Ada has a name and an age: those are not asked for.
    expect(within(checklist).queryByText('Add your name')).not.toBeInTheDocument();
    expect(within(checklist).queryByText('Add your age')).not.toBeInTheDocument();
  });

  it('loads more likers on Show more while the total says there are more', async () => {
    const user = userEvent.setup();
    const first = Array.from({ length: 12 }, (_, i) => aLiker(10 + i));
    api.matching.likesReceived.mockImplementation(({ offset = 0 } = {}) =>
      Promise.resolve({ total: 13, likers: offset === 0 ? first : [aLiker(40, { name: 'Last' })] }),
    );
    renderWithApp(api, { route: '/dashboard' });
    const likes = await screen.findByRole('region', { name: 'Who liked you' });
    expect(await within(likes).findAllByRole('button', { name: /^Like back / })).toHaveLength(12);
    await user.click(within(likes).getByRole('button', { name: 'Show more' }));
    expect(await within(likes).findByText('Last')).toBeInTheDocument();
    expect(api.matching.likesReceived).toHaveBeenLastCalledWith({ limit: 12, offset: 12 });
    expect(within(likes).queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });

  it('hides the checklist at 100%', async () => {
    renderWithApp(api, { route: '/dashboard' });
    await screen.findByText('100%');
    expect(screen.queryByRole('region', { name: 'Complete your profile' })).not.toBeInTheDocument();
  });

  it('follows a new match live: the matches, who liked you and the stats are read again', async () => {
    renderWithApp(api, { route: '/dashboard', realtime });
    await waitFor(() => expect(clients).toHaveLength(1));
    act(() => clients[0].serverConnects());
    const matches = await screen.findByRole('region', { name: 'New matches' });
    await within(matches).findByText(/No matches yet/);
    api.matching.getMyMatches.mockResolvedValue([aMatch(7, { name: 'Gus' })]);
    api.matching.getMatchStats.mockResolvedValue({ matches: 3, likesReceived: 5, likesSent: 9 });
    const likesCalls = api.matching.likesReceived.mock.calls.length;
    act(
      () =>
        void clients[0].socket.emit('new_match', {
          matchId: 'm7',
          user: { id: 'u7', name: 'Gus', profilePicture: null },
          matchedAt: '2026-11-29T10:00:00.000Z',
        }),
    );
    expect(await within(matches).findByRole('link', { name: 'Chat with Gus' })).toHaveAttribute(
      'href',
      '/chat/u7',
    );
    await waitFor(() => expect(api.matching.likesReceived.mock.calls.length).toBeGreaterThan(likesCalls));
    await waitFor(() => expect(count('Matches')).toHaveTextContent('3'));
  });

  const count = (label: string) =>
    within(screen.getByText(label, { selector: 'dt' }).closest('div') as HTMLElement).getByRole('definition');
});
