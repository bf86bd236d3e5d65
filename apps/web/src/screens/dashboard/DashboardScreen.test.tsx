import { ApiError } from '@mate/api-client';
import { ChatMessages, MatchingMessages, type ConversationSummaryDto } from '@mate/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { aProfile, aUser, logoutOutcomes, signedInApi, storedSession, type FakeApi } from '../../testing/fake-api';
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
    api.chat.getConversations.mockResolvedValue([conversation('u1', 4), conversation('u2', 1), conversation('u3', 0)]);
    renderWithApp(api, { route: '/dashboard' });
    expect(await screen.findByText('12')).toBeInTheDocument();
    expect(api.matching.getMatchStats).toHaveBeenCalledTimes(1);
    expect(count('Matches')).toHaveTextContent('3');
    expect(count('Likes')).toHaveTextContent('12');
    await waitFor(() => expect(count('Messages')).toHaveTextContent('2'));
  });

  it('shows a dash for the counts it cannot load, with a spinner while they load', async () => {
    api.profile.getCompletion.mockResolvedValue({ percentage: 70 });
    let fail: (error: Error) => void = () => undefined;
    api.matching.getMatchStats.mockReturnValue(
      new Promise((_resolve, reject) => {
        fail = reject;
      }),
    );
    renderWithApp(api, { route: '/dashboard' });
    expect(await screen.findByText('Loading matches...')).toBeInTheDocument();
    expect(screen.getByText('Loading likes...')).toBeInTheDocument();
    fail(new ApiError(MatchingMessages.matchesFailed, 500));
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
    await waitFor(() => expect(within(count('Messages')).getByLabelText('Not available')).toHaveTextContent('—'));
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

  it.each(logoutOutcomes)('Sign Out clears the token, the user and the profile and shows the sign-in screen at / (%s)', async (_case, arrange) => {
    arrange(api);
    const user = userEvent.setup();
    renderWithApp(api, { route: '/dashboard' });
    await screen.findByRole('heading', { name: 'Welcome, Ada!' });
    const header = screen.getByRole('heading', { level: 1, name: 'Mate' }).closest('.dashboard__header') as HTMLElement;
    await user.click(within(header).getByRole('button', { name: 'Sign Out' }));

    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    expect(api.auth.logout).toHaveBeenCalledTimes(1);
    expect(storedSession()).toEqual([null, null, null]);
    expect(screen.queryByRole('heading', { name: /Welcome, / })).not.toBeInTheDocument();
  });
});
