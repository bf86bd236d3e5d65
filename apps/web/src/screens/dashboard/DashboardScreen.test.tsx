import { ApiError } from '@mate/api-client';
import { MatchingMessages } from '@mate/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { signedInApi, type FakeApi } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';

describe('DashboardScreen stats', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = signedInApi();
    api.matching.getMatchStats.mockResolvedValue({ matches: 3, likesReceived: 12, likesSent: 20 });
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

  it('shows real Matches and Likes (received) from /api/matches/stats, and Messages 0 until chat exists', async () => {
    api.profile.getCompletion.mockResolvedValue({ percentage: 70 });
    renderWithApp(api, { route: '/dashboard' });
    expect(await screen.findByText('12')).toBeInTheDocument();
    expect(api.matching.getMatchStats).toHaveBeenCalledTimes(1);
    expect(count('Matches')).toHaveTextContent('3');
    expect(count('Likes')).toHaveTextContent('12');
    expect(count('Messages')).toHaveTextContent('0');
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
});
