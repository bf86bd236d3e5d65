import { ApiError } from '@mate/api-client';
import {
  AUTH_TOKEN_KEY,
  LEGACY_TOKEN_KEY,
  SafetyMessages,
  SafetyTexts,
  type BlockedUserDto,
} from '@mate/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { signedInApi, type FakeApi } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { formatBlockedDate } from './SafetyScreen';

const sam: BlockedUserDto = {
  id: 'b1',
  blockedId: 'u-sam',
  name: 'Sam',
  photo: '/api/photos/files/ph9/large.webp',
  createdAt: '2026-11-20T09:30:00.000Z',
};
const nameless: BlockedUserDto = {
  id: 'b2',
  blockedId: 'u-gone',
  name: null,
  photo: null,
  createdAt: '2026-10-02T18:00:00.000Z',
};

const blockedList = () => screen.getByRole('list', { name: 'Blocked Users' });

describe('SafetyScreen (/safety)', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = signedInApi();
  });

  it('shows the blocked members with their photo or initial, a Blocked date and an Unblock button each', async () => {
    api.safety.getBlockedUsers.mockResolvedValue([sam, nameless]);
    renderWithApp(api, { route: '/safety' });

    expect(await screen.findByRole('heading', { name: 'Safety & Privacy', level: 1 })).toBeInTheDocument();
    const rows = within(await screen.findByRole('list', { name: 'Blocked Users' })).getAllByRole('listitem');
    expect(rows).toHaveLength(2);

    const samRow = screen.getByRole('listitem', { name: 'Sam' });
    expect(samRow).toHaveTextContent(`Blocked ${formatBlockedDate(sam.createdAt)}`);
    expect(formatBlockedDate(sam.createdAt)).toMatch(/2026/);
    expect(within(samRow).getByRole('img', { name: 'Sam' })).toHaveAttribute(
      'src',
      'http://api.test/api/photos/files/ph9/thumb.webp',
    );
    expect(within(samRow).getByRole('button', { name: 'Unblock Sam' })).toHaveTextContent('Unblock');

    const unknownRow = screen.getByRole('listitem', { name: 'Unknown User' });
    expect(unknownRow).toHaveTextContent(`Blocked ${formatBlockedDate(nameless.createdAt)}`);
    expect(within(unknownRow).getByRole('button', { name: 'Unblock Unknown User' })).toBeInTheDocument();
    // No photo: the initial.
    const initial = within(unknownRow).getByRole('img', { name: 'Unknown User' });
    expect(initial.tagName).toBe('SPAN');
    expect(initial).toHaveTextContent('U');
  });

  it('shows the read-only privacy settings, the five safety tips, the Need Help panel and the way back to Profile', async () => {
    api.safety.getBlockedUsers.mockResolvedValue([]);
    renderWithApp(api, { route: '/safety' });

    expect(await screen.findByText(SafetyTexts.noBlockedUsers)).toBeInTheDocument();
    const privacy = screen.getByRole('region', { name: 'Privacy Settings' });
    expect(within(privacy).getByText('Profile Visibility').nextElementSibling).toHaveTextContent('Everyone');
    expect(within(privacy).getByText('Show Me in Discovery').nextElementSibling).toHaveTextContent('Active');
    expect(within(privacy).getByText('Additional privacy controls coming soon')).toBeInTheDocument();
    expect(within(privacy).queryByRole('button')).not.toBeInTheDocument();
    expect(within(privacy).queryByRole('checkbox')).not.toBeInTheDocument();

    const tips = within(screen.getByRole('list', { name: 'Safety Tips' })).getAllByRole('listitem');
    expect(tips.map((tip) => tip.textContent)).toEqual([...SafetyTexts.tips]);
    expect(tips).toHaveLength(5);

    const help = screen.getByRole('complementary', { name: 'Need Help?' });
    expect(help).toHaveTextContent('If you are in immediate danger, call your local emergency number.');

    expect(screen.getByRole('link', { name: 'Back to Profile' })).toHaveAttribute('href', '/profile');
  });

  it('unblocks a member: the entry leaves the list, and the last one leaves the empty state', async () => {
    const user = userEvent.setup();
    api.safety.getBlockedUsers.mockResolvedValue([sam, nameless]);
    let answer: (value: { unblocked: boolean }) => void = () => undefined;
    api.safety.unblock.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    renderWithApp(api, { route: '/safety' });

    const unblockSam = await screen.findByRole('button', { name: 'Unblock Sam' });
    await user.click(unblockSam);
    expect(api.safety.unblock).toHaveBeenCalledWith('u-sam');
    // No second request while the first is on its way, for this entry or another.
    expect(unblockSam).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Unblock Unknown User' })).toBeDisabled();
    await user.click(unblockSam);
    expect(api.safety.unblock).toHaveBeenCalledTimes(1);

    answer({ unblocked: true });
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Sam' })).not.toBeInTheDocument());
    expect(within(blockedList()).getAllByRole('listitem')).toHaveLength(1);

    api.safety.unblock.mockResolvedValueOnce({ unblocked: true });
    await user.click(screen.getByRole('button', { name: 'Unblock Unknown User' }));
    expect(await screen.findByText(SafetyTexts.noBlockedUsers)).toBeInTheDocument();
    expect(api.safety.getBlockedUsers).toHaveBeenCalledTimes(1);
  });

  it("says 'Failed to unblock user' and keeps the entry when the unblock fails", async () => {
    const user = userEvent.setup();
    api.safety.getBlockedUsers.mockResolvedValue([sam]);
    api.safety.unblock.mockRejectedValueOnce(new ApiError(SafetyMessages.unblockFailed, 503));
    renderWithApp(api, { route: '/safety' });

    await user.click(await screen.findByRole('button', { name: 'Unblock Sam' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to unblock user');
    expect(screen.getByRole('listitem', { name: 'Sam' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unblock Sam' })).toBeEnabled();
  });

  it("shows the server's own words when it gives them", async () => {
    const user = userEvent.setup();
    api.safety.getBlockedUsers.mockResolvedValue([sam]);
    api.safety.unblock.mockRejectedValueOnce(
      new ApiError('Too many block requests. Please try again later.', 429, SafetyMessages.tooManyBlocks),
    );
    renderWithApp(api, { route: '/safety' });
    await user.click(await screen.findByRole('button', { name: 'Unblock Sam' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(SafetyMessages.tooManyBlocks);
  });

  it("says 'Failed to load blocked users' when the list cannot be read, and Try Again reads it again", async () => {
    const user = userEvent.setup();
    api.safety.getBlockedUsers
      .mockRejectedValueOnce(new ApiError(SafetyMessages.blockedFailed, 503))
      .mockResolvedValue([sam]);
    renderWithApp(api, { route: '/safety' });

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load blocked users');
    // The rest of the screen is still there.
    expect(screen.getByText('Additional privacy controls coming soon')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('listitem', { name: 'Sam' })).toBeInTheDocument();
  });

  it('sends a visitor without a stored auth token to /', async () => {
    api.safety.getBlockedUsers.mockResolvedValue([]);
    api.matching.getMatchStats.mockResolvedValue({ matches: 0, likesReceived: 0, likesSent: 0 });
    api.profile.getCompletion.mockResolvedValue({ percentage: 50 });
    api.chat.getConversations.mockResolvedValue([]);
    renderWithApp(api, { route: '/profile' });
    await screen.findByRole('heading', { level: 1 });
    window.localStorage.removeItem(AUTH_TOKEN_KEY);
    window.localStorage.removeItem(LEGACY_TOKEN_KEY);
    await userEvent.click(screen.getAllByRole('link', { name: 'Safety' })[0]);
    // / sends a member the app still knows as signed in on to the dashboard.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/));
    expect(api.safety.getBlockedUsers).not.toHaveBeenCalled();
  });
});
