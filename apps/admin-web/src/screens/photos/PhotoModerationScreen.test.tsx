import { ApiError } from '@mate/api-client';
import type { PendingPhotoDto, PendingPhotosResponseDto } from '@mate/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedInAdminApi, type FakeAdminApi } from '../../testing/fake-api';
import { renderAdmin } from '../../testing/render';

function aPhoto(n: number, overrides: Partial<PendingPhotoDto> = {}): PendingPhotoDto {
  return {
    id: `p${n}`,
    url: `/api/photos/files/p${n}/large.webp`,
    userId: `u${n}`,
    userName: `Member ${n}`,
    userEmail: `member${n}@mate.test`,
    userAge: 20 + n,
    userGender: 'woman',
    createdAt: '2026-11-22T09:00:00.000Z',
    riskScore: 0.9,
    scores: null,
    hiddenFromMembers: true,
    ...overrides,
  };
}

function queue(photos: PendingPhotoDto[], stats = { totalPending: photos.length, approvedToday: 2, rejectedToday: 1 }): PendingPhotosResponseDto {
  return { photos, stats };
}

const applied = { applied: true, auditId: 'a1' };

describe('PhotoModerationScreen (spec 001 §2 Photo moderation queue)', () => {
  let api: FakeAdminApi;
  beforeEach(() => {
    api = signedInAdminApi();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the stat cards, the grid with name, age and gender, and Select a photo to review', async () => {
    api.admin.getPendingPhotos.mockResolvedValue(queue([aPhoto(1), aPhoto(2, { userAge: null, userGender: null })]));
    renderAdmin(api, { route: '/admin/photos' });
    expect(await screen.findByText('Select a photo to review')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Total Pending' })).getByText('2')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Approved Today' })).getByText('2')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Rejected Today' })).getByText('1')).toBeInTheDocument();
    const grid = screen.getByRole('list', { name: 'Pending photos' });
    expect(within(grid).getByText('Member 1')).toBeInTheDocument();
    expect(within(grid).getByText('21 · woman')).toBeInTheDocument();
    expect(within(grid).getByText('N/A · N/A')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/admin');
  });

  it('says All caught up! when the queue is empty', async () => {
    api.admin.getPendingPhotos.mockResolvedValue(queue([]));
    renderAdmin(api, { route: '/admin/photos' });
    expect(await screen.findByText('All caught up!')).toBeInTheDocument();
    expect(screen.getByText('No pending photos to review')).toBeInTheDocument();
    expect(screen.getByText('Select a photo to review')).toBeInTheDocument();
  });

  it('shows a red card with the server message, or Failed to load photos', async () => {
    api.admin.getPendingPhotos.mockRejectedValue(new ApiError('Admin access required', 403, 'Admin access required'));
    const { unmount } = renderAdmin(api, { route: '/admin/photos' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Admin access required');
    unmount();
    api.admin.getPendingPhotos.mockRejectedValue(new ApiError('Failed to get pending photos', 500));
    renderAdmin(api, { route: '/admin/photos' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load photos');
  });

  it('shows the detail panel of the selected photo and approves it; the queue reloads and the selection clears', async () => {
    const user = userEvent.setup();
    const scores = { Drawing: 0.01, Hentai: 0.04, Neutral: 0.05, Porn: 0.6, Sexy: 0.3 };
    api.admin.getPendingPhotos.mockResolvedValueOnce(queue([aPhoto(1, { scores }), aPhoto(2)])).mockResolvedValue(queue([aPhoto(2)]));
    api.admin.approvePhoto.mockResolvedValue(applied);
    renderAdmin(api, { route: '/admin/photos' });
    await user.click(await screen.findByRole('button', { name: /Photo by Member 1/ }));
    const panel = screen.getByRole('heading', { name: 'Review Photo' }).closest('section') as HTMLElement;
    expect(within(panel).getByText('member1@mate.test')).toBeInTheDocument();
    // Judged on the 1200 px file; the tiles of the queue load the 600 px one.
    expect(within(panel).getByRole('img', { name: 'Selected photo by Member 1' })).toHaveAttribute(
      'src',
      'http://api.test/api/photos/files/p1/large.webp',
    );
    const grid = screen.getByRole('list', { name: 'Pending photos' });
    expect(within(grid).getByRole('img', { name: 'Photo by Member 2' })).toHaveAttribute(
      'src',
      'http://api.test/api/photos/files/p2/medium.webp',
    );
    expect(within(panel).getByText('21')).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'View Full Profile' })).toHaveAttribute('href', '/admin/users/u1');
    expect(within(panel).getByText('Risk score').nextElementSibling).toHaveTextContent('90%');
    expect(within(within(panel).getByRole('list', { name: 'Classifier scores' })).getByText('Porn: 60%')).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Approve Photo' }));
    await waitFor(() => expect(api.admin.approvePhoto).toHaveBeenCalledWith('p1'));
    expect(await screen.findByText('Select a photo to review')).toBeInTheDocument();
    expect(api.admin.getPendingPhotos).toHaveBeenCalledTimes(2);
  });

  it('needs a trimmed reason to reject', async () => {
    const user = userEvent.setup();
    api.admin.getPendingPhotos.mockResolvedValueOnce(queue([aPhoto(1)])).mockResolvedValue(queue([]));
    api.admin.rejectPhoto.mockResolvedValue(applied);
    renderAdmin(api, { route: '/admin/photos' });
    await user.click(await screen.findByRole('button', { name: /Photo by Member 1/ }));
    const reject = screen.getByRole('button', { name: 'Reject Photo' });
    expect(reject).toBeDisabled();
    expect(screen.getByText('Please provide a rejection reason')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Rejection reason'), '   ');
    expect(reject).toBeDisabled();
    await user.type(screen.getByLabelText('Rejection reason'), 'Nudity ');
    expect(reject).toBeEnabled();
    await user.click(reject);
    await waitFor(() => expect(api.admin.rejectPhoto).toHaveBeenCalledWith('p1', 'Nudity'));
    expect(await screen.findByText('All caught up!')).toBeInTheDocument();
    expect(screen.getByText('Select a photo to review')).toBeInTheDocument();
  });

  it('alerts a failed decision', async () => {
    const user = userEvent.setup();
    api.admin.getPendingPhotos.mockResolvedValue(queue([aPhoto(1)]));
    api.admin.approvePhoto.mockRejectedValue(new ApiError('Failed to approve photo', 500));
    const { browser } = renderAdmin(api, { route: '/admin/photos' });
    await user.click(await screen.findByRole('button', { name: /Photo by Member 1/ }));
    await user.click(screen.getByRole('button', { name: 'Approve Photo' }));
    await waitFor(() => expect(browser.alert).toHaveBeenCalledWith('Failed to approve photo'));
  });

  it('reloads the queue every 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    api.admin.getPendingPhotos.mockResolvedValue(queue([aPhoto(1)]));
    renderAdmin(api, { route: '/admin/photos' });
    await screen.findByText('Select a photo to review');
    expect(api.admin.getPendingPhotos).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(api.admin.getPendingPhotos).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    await waitFor(() => expect(api.admin.getPendingPhotos).toHaveBeenCalledTimes(2));
  });
});
