import { ApiError } from '@mate/api-client';
import {
  REPORT_CLOSE_DELAY_MS,
  SafetyMessages,
  type ReportResultDto,
  type SuggestionDto,
} from '@mate/contracts';
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aSuggestion, signedInApi, type FakeApi } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';

const suggestions = (...ns: number[]): SuggestionDto[] => ns.map((n) => aSuggestion(n));
const topCard = () => screen.getByRole('article');
const reported: ReportResultDto = {
  id: 'r1',
  reportedId: 'u1',
  reason: 'fake_profile',
  createdAt: '2026-11-23T10:00:00.000Z',
};

describe('Discover card: Report (issue 10)', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = signedInApi();
    api.matching.like.mockResolvedValue({ matched: false });
    api.matching.pass.mockResolvedValue({ passed: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function open() {
    api.matching.getSuggestions.mockResolvedValueOnce(suggestions(1, 2, 3, 4, 5));
    renderWithApp(api, { route: '/discover' });
    await screen.findByRole('article');
  }

  it("reports the member on the card from its flag: 'Report Submitted', closing after 2 s, the card staying", async () => {
    await open();
    const user = userEvent.setup();
    await user.click(within(topCard()).getByRole('button', { name: 'Report' }));

    const dialog = screen.getByRole('dialog', { name: 'Report Member 1' });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Reason' }), 'Fake profile');
    // The arrow keys never swipe the card behind the dialog, wherever the focus is in it.
    act(() => within(dialog).getByRole('button', { name: 'Cancel' }).focus());
    await user.keyboard('{ArrowRight}{ArrowLeft}');
    expect(api.matching.like).not.toHaveBeenCalled();
    expect(api.matching.pass).not.toHaveBeenCalled();

    vi.useFakeTimers();
    let answer: (value: ReportResultDto) => void = () => undefined;
    api.safety.report.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit Report' }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(api.safety.report).toHaveBeenCalledWith('u1', 'fake_profile', undefined);
    await act(async () => answer(reported));
    await act(() => vi.advanceTimersByTimeAsync(0));

    const done = screen.getByRole('dialog', { name: 'Report Submitted' });
    expect(done).toHaveTextContent('Thank you for helping keep our community safe');
    await act(() => vi.advanceTimersByTimeAsync(REPORT_CLOSE_DELAY_MS - 1));
    expect(screen.getByRole('dialog', { name: 'Report Submitted' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    vi.useRealTimers();

    // Reporting is not deciding: the card is still on top, and swiping goes on.
    expect(topCard()).toHaveAccessibleName('Member 1, 30');
    expect(screen.getByText('5 potential matches')).toBeInTheDocument();
  }, 15_000);

  it('a press on the flag never starts a swipe', async () => {
    await open();
    const pointer = { pointerId: 1, isPrimary: true, pointerType: 'touch' };
    const flag = within(topCard()).getByRole('button', { name: 'Report' });
    fireEvent.pointerDown(flag, { ...pointer, clientX: 200 });
    fireEvent.pointerMove(topCard(), { ...pointer, clientX: 350 });
    fireEvent.pointerUp(topCard(), { ...pointer, clientX: 350 });
    expect(api.matching.like).not.toHaveBeenCalled();
    expect(screen.queryByText('LIKE')).not.toBeInTheDocument();
    // The same drag from the card itself likes.
    fireEvent.pointerDown(topCard(), { ...pointer, clientX: 200 });
    fireEvent.pointerMove(topCard(), { ...pointer, clientX: 350 });
    fireEvent.pointerUp(topCard(), { ...pointer, clientX: 350 });
    expect(api.matching.like).toHaveBeenCalledWith('u1');
  });

  it("says 'Failed to report user' when the report fails; Cancel then closes it and the card stays", async () => {
    await open();
    const user = userEvent.setup();
    api.safety.report.mockRejectedValueOnce(new ApiError(SafetyMessages.reportFailed, 503));
    await user.click(within(topCard()).getByRole('button', { name: 'Report' }));
    const dialog = screen.getByRole('dialog', { name: 'Report Member 1' });
    await user.click(within(dialog).getByRole('button', { name: 'Submit Report' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to report user');
    expect(api.safety.report).toHaveBeenCalledWith('u1', 'inappropriate_content', undefined);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(topCard()).toHaveAccessibleName('Member 1, 30');
  });
});
