import { ApiError } from '@mate/api-client';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { aProfile, aUser, createFakeApi, storeSession, type FakeApi } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';

describe('DashboardScreen stats', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = createFakeApi();
    storeSession();
    api.auth.me.mockResolvedValue(aUser());
    api.profile.getMyProfile.mockResolvedValue(aProfile());
  });

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
    expect(screen.getByRole('progressbar', { name: 'Profile completion' })).toHaveAttribute('aria-valuenow', '70');
  });

  it('shows a dash when the completion cannot be loaded', async () => {
    api.profile.getCompletion.mockRejectedValue(new ApiError('Failed to get profile completion', 500));
    renderWithApp(api, { route: '/dashboard' });
    expect(await screen.findByLabelText('Not available')).toHaveTextContent('—');
  });
});
