import { ApiError } from '@mate/api-client';
import { CallMessages, type CallRecordDto, type CallStatsDto, type CallStatus } from '@mate/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { aUser, signedInApi, type FakeApi } from '../../testing/fake-api';
import { AppRoutes } from '../../app/AppRoutes';
import { fakeCall } from '../../testing/fake-call';
import { renderWithApp } from '../../testing/render';

const selfId = aUser().id;

let seq = 0;
const aCall = (overrides: Partial<CallRecordDto> = {}): CallRecordDto => {
  seq += 1;
  return {
    id: `c${seq}`,
    callerId: selfId,
    recipientId: 'u2',
    callerName: 'Ada',
    recipientName: 'Bea',
    status: 'completed',
    startedAt: '2026-11-20T18:30:00.000Z',
    durationSeconds: 75,
    ...overrides,
  };
};

const aPage = (n: number, from = 0): CallRecordDto[] =>
  Array.from({ length: n }, (_, i) => aCall({ id: `p${from + i}`, recipientName: `Member ${from + i}` }));

const stats = (overrides: Partial<CallStatsDto> = {}): CallStatsDto => ({
  totalCalls: 3,
  completedCalls: 2,
  successRate: 2 / 3,
  averageDurationSeconds: 125,
  ...overrides,
});

const rows = () => within(screen.getByRole('list', { name: 'Calls' })).getAllByRole('listitem');
const statValue = (label: string) => {
  const card = screen.getByRole('region', { name: 'Call Statistics' });
  const term = within(card).getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent;
};
const pager = () => screen.getByRole('navigation', { name: 'Call history pages' });
const button = (name: string) => within(pager()).getByRole('button', { name });

describe('CallHistoryScreen (/calls)', () => {
  let api: FakeApi;
  /** The server's answer: the page, and more only after a full page (what x-has-more says for these). */
  const answer = (calls: CallRecordDto[]) => ({ calls, hasMore: calls.length === 20 });
  const serve = (calls: CallRecordDto[]) => api.calls.getHistoryPage.mockResolvedValue(answer(calls));
  const serveOnce = (calls: CallRecordDto[]) => api.calls.getHistoryPage.mockResolvedValueOnce(answer(calls));
  const serveBy = (pageFor: (limit?: number, offset?: number, status?: CallStatus) => Promise<CallRecordDto[]>) =>
    api.calls.getHistoryPage.mockImplementation(async (limit, offset, status) => answer(await pageFor(limit, offset, status)));
  beforeEach(() => {
    seq = 0;
    api = signedInApi();
    api.calls.getStats.mockResolvedValue(stats());
  });

  it('shows the statistics card with the success rate to 1 decimal, the average as mm:ss, and a chart with its text summary', async () => {
    serve([aCall()]);
    renderWithApp(api, { route: '/calls' });

    expect(await screen.findByRole('heading', { name: 'Call History', level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(statValue('Success Rate')).toBe('66.7%'));
    expect(statValue('Total Calls')).toBe('3');
    expect(statValue('Completed')).toBe('2');
    expect(statValue('Avg Duration')).toBe('02:05');
    const chart = await screen.findByRole('figure', { name: 'Completed calls chart' });
    expect(chart).toHaveTextContent('2 completed and 1 not completed of 3 calls (66.7% success rate)');
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(document.title).toContain('Call History');
  });

  it.each([
    [{ totalCalls: 1, completedCalls: 1, successRate: 1 }, '100.0%'],
    [{ totalCalls: 8, completedCalls: 1, successRate: 0.125 }, '12.5%'],
    [{ totalCalls: 7, completedCalls: 1, successRate: 1 / 7 }, '14.3%'],
  ])('formats a success rate of %o as %s', async (values, shown) => {
    api.calls.getStats.mockResolvedValue(stats(values));
    serve([]);
    renderWithApp(api, { route: '/calls' });
    await waitFor(() => expect(statValue('Success Rate')).toBe(shown));
  });

  it('shows zeros and no chart for a member without calls, and the empty state', async () => {
    api.calls.getStats.mockResolvedValue(stats({ totalCalls: 0, completedCalls: 0, successRate: 0, averageDurationSeconds: 0 }));
    serve([]);
    renderWithApp(api, { route: '/calls' });

    expect(await screen.findByRole('heading', { name: 'No calls yet' })).toBeInTheDocument();
    await waitFor(() => expect(statValue('Success Rate')).toBe('0.0%'));
    expect(statValue('Avg Duration')).toBe('00:00');
    expect(screen.queryByRole('figure', { name: 'Completed calls chart' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Messages' })).toHaveAttribute('href', '/matches');
    expect(button('Previous')).toBeDisabled();
    expect(button('Next')).toBeDisabled();
    expect(within(pager()).getByText('Page 1')).toBeInTheDocument();
  });

  it('lists each call: the other member, the direction, the status label, the date and the duration mm:ss', async () => {
    serve([
      aCall({ recipientName: 'Bea', status: 'completed', durationSeconds: 75 }),
      aCall({ callerId: 'u3', recipientId: selfId, callerName: 'Cy', recipientName: 'Ada', status: 'missed', durationSeconds: 0 }),
      aCall({ recipientId: 'u4', recipientName: null, status: 'rejected', durationSeconds: 0 }),
      aCall({ callerId: 'u5', recipientId: selfId, callerName: 'Dee', status: 'in_progress', durationSeconds: null }),
      aCall({ recipientName: 'Eve', status: 'failed', durationSeconds: 0 }),
    ]);
    renderWithApp(api, { route: '/calls' });

    const [bea, cy, unknown, dee, eve] = await waitFor(rows);
    expect(bea).toHaveAccessibleName('Call with Bea');
    expect(bea).toHaveTextContent('Outgoing');
    expect(bea).toHaveTextContent('Completed');
    expect(bea).toHaveTextContent('Duration 01:15');
    const time = bea.querySelector('time');
    expect(time).toHaveAttribute('dateTime', '2026-11-20T18:30:00.000Z');
    expect(time?.textContent).toMatch(/2026/);

    expect(cy).toHaveAccessibleName('Call with Cy');
    expect(cy).toHaveTextContent('Incoming');
    expect(cy).toHaveTextContent('Missed');
    expect(cy).toHaveTextContent('Duration 00:00');

    expect(unknown).toHaveAccessibleName('Call with Unknown User');
    expect(unknown).toHaveTextContent('Rejected');

    expect(dee).toHaveTextContent('Incoming');
    expect(dee).toHaveTextContent('In Progress');
    expect(dee).toHaveTextContent('Duration --:--');

    expect(eve).toHaveTextContent('Failed');
    expect(api.calls.getHistoryPage).toHaveBeenCalledWith(20, 0, undefined);
  });

  it("asks the server for 'Completed' and shows the completed call that sat on page 2 of All Calls", async () => {
    const zed = aCall({ id: 'zed', recipientName: 'Zed', status: 'completed' });
    const missed = aPage(20).map((call) => ({ ...call, status: 'missed' as const }));
    serveBy((_limit?: number, offset = 0, status?: CallStatus) =>
      Promise.resolve(status === 'completed' ? [zed] : status ? [] : offset === 0 ? missed : [zed]),
    );
    const user = userEvent.setup();
    renderWithApp(api, { route: '/calls' });
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(screen.queryByRole('listitem', { name: 'Call with Zed' })).not.toBeInTheDocument();

    const filters = screen.getByRole('group', { name: 'Filter calls' });
    expect(within(filters).getAllByRole('button').map((b) => b.textContent)).toEqual([
      'All Calls',
      'Completed',
      'Missed',
      'Rejected',
      'Failed',
    ]);
    expect(within(filters).getByRole('button', { name: 'All Calls' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(within(filters).getByRole('button', { name: 'Completed' }));
    expect(within(filters).getByRole('button', { name: 'Completed' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(filters).getByRole('button', { name: 'All Calls' })).toHaveAttribute('aria-pressed', 'false');
    await waitFor(() => expect(rows().map((row) => row.getAttribute('aria-label'))).toEqual(['Call with Zed']));
    expect(rows()[0]).toHaveTextContent('Completed');
    expect(api.calls.getHistoryPage).toHaveBeenLastCalledWith(20, 0, 'completed');
    expect(within(pager()).getByText('Page 1')).toBeInTheDocument();
    expect(button('Next')).toBeDisabled();

    for (const [label, status] of [['Missed', 'missed'], ['Rejected', 'rejected'], ['Failed', 'failed']] as const) {
      await user.click(within(filters).getByRole('button', { name: label }));
      await waitFor(() => expect(api.calls.getHistoryPage).toHaveBeenLastCalledWith(20, 0, status));
    }
    await user.click(within(filters).getByRole('button', { name: 'All Calls' }));
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(api.calls.getHistoryPage).toHaveBeenLastCalledWith(20, 0, undefined);
  });

  it('says so when the server has no call of the filter', async () => {
    serveBy((_limit?: number, _offset?: number, status?: CallStatus) =>
      Promise.resolve(status ? [] : [aCall({ status: 'completed' })]),
    );
    const user = userEvent.setup();
    renderWithApp(api, { route: '/calls' });
    await waitFor(() => expect(rows()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Missed' }));
    expect(await screen.findByRole('heading', { name: 'No calls match this filter' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Calls' })).not.toBeInTheDocument();
    expect(button('Next')).toBeDisabled();
  });

  it('pages within a filter with Next and Previous, and a new filter starts again at Page 1', async () => {
    serveBy((_limit?: number, offset = 0, status?: CallStatus) => {
      if (!status) return Promise.resolve(aPage(20, offset));
      const named = (calls: CallRecordDto[]) => calls.map((call) => ({ ...call, status, recipientName: `${status} ${call.recipientName}` }));
      return Promise.resolve(offset === 0 ? named(aPage(20, 0)) : named(aPage(4, 20)));
    });
    const user = userEvent.setup();
    renderWithApp(api, { route: '/calls' });
    await waitFor(() => expect(rows()).toHaveLength(20));
    await user.click(button('Next'));
    await waitFor(() => expect(within(pager()).getByText('Page 2')).toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Missed' }));
    await waitFor(() => expect(rows()[0]).toHaveAccessibleName('Call with missed Member 0'));
    expect(within(pager()).getByText('Page 1')).toBeInTheDocument();
    expect(api.calls.getHistoryPage).toHaveBeenLastCalledWith(20, 0, 'missed');
    expect(button('Previous')).toBeDisabled();

    await user.click(button('Next'));
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(rows()[0]).toHaveAccessibleName('Call with missed Member 20');
    expect(within(pager()).getByText('Page 2')).toBeInTheDocument();
    expect(api.calls.getHistoryPage).toHaveBeenLastCalledWith(20, 20, 'missed');
    expect(button('Next')).toBeDisabled();

    await user.click(button('Previous'));
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(rows()[0]).toHaveAccessibleName('Call with missed Member 0');
    expect(within(pager()).getByText('Page 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Missed' })).toHaveAttribute('aria-pressed', 'true');
  });

  it("shows the other member's picture, the initial without one, and 'Unknown User' with no picture for a deleted member", async () => {
    serve([
      aCall({ recipientName: 'Bea', recipientProfilePicture: '/api/photos/files/bea/large.webp', callerProfilePicture: '/api/photos/files/me.webp' }),
      aCall({ callerId: 'u3', recipientId: selfId, callerName: 'Cy', callerProfilePicture: '/api/photos/files/cy.webp', recipientProfilePicture: '/api/photos/files/me.webp' }),
      aCall({ recipientId: 'u4', recipientName: 'Kit', recipientProfilePicture: null }),
      aCall({ recipientId: 'gone', recipientName: 'Unknown User', recipientProfilePicture: null, callable: false }),
    ]);
    renderWithApp(api, { route: '/calls' });
    const [bea, cy, kit, gone] = await waitFor(rows);
    // A 40 px avatar loads the 200 px file, not the 1200 px one the server names.
    expect(within(bea).getByRole('img', { name: 'Bea' })).toHaveAttribute('src', 'http://api.test/api/photos/files/bea/thumb.webp');
    expect(within(cy).getByRole('img', { name: 'Cy' })).toHaveAttribute('src', 'http://api.test/api/photos/files/cy.webp');
    expect(within(kit).getByRole('img', { name: 'Kit' })).toHaveTextContent('K');
    expect(within(kit).getByRole('img', { name: 'Kit' }).tagName).not.toBe('IMG');
    expect(gone).toHaveAccessibleName('Call with Unknown User');
    expect(within(gone).getByRole('img', { name: 'Unknown User' })).toHaveTextContent('U');
    expect(gone.querySelector('img')).toBeNull();
    expect(within(gone).queryByRole('button')).not.toBeInTheDocument();
  });

  it('calls the member back the way the chat does, and opens the call screen once it is calling', async () => {
    serve([
      aCall({ recipientId: 'u2', recipientName: 'Bea', callable: true }),
      aCall({ callerId: 'u3', recipientId: selfId, callerName: 'Cy', callable: false }),
    ]);
    const call = fakeCall();
    const user = userEvent.setup();
    renderWithApp(api, { route: '/calls', children: call.wrap(<AppRoutes />) });
    const [bea, cy] = await waitFor(rows);
    // No longer callable (unmatched, blocked, suspended or deleted): no button to press.
    expect(within(cy).queryByRole('button', { name: 'Call Cy back' })).not.toBeInTheDocument();

    await user.click(within(bea).getByRole('button', { name: 'Call Bea back' }));
    expect(call.actions.startCall).toHaveBeenCalledWith('u2', 'Bea');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/call/u2'));
    expect(await screen.findByRole('heading', { name: 'Calling Bea...', level: 1 })).toBeInTheDocument();
    expect(call.actions.startCall).toHaveBeenCalledTimes(1);
  });

  it("shows the server's refusal of a call-back and stays on the history", async () => {
    serve([aCall({ recipientId: 'u2', recipientName: 'Bea', callable: true })]);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const call = fakeCall();
    call.actions.startCall.mockRejectedValueOnce(new Error(CallMessages.notMatched));
    const user = userEvent.setup();
    renderWithApp(api, { route: '/calls', children: call.wrap(<AppRoutes />) });
    const [bea] = await waitFor(rows);
    await user.click(within(bea).getByRole('button', { name: 'Call Bea back' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You can only call your matches');
    expect(screen.getByTestId('location')).toHaveTextContent('/calls');
    expect(within(rows()[0]).getByRole('button', { name: 'Call Bea back' })).toBeEnabled();
    expect(alert).not.toHaveBeenCalled();
  });

  it('pages by 20: Next only when the page came back full, Previous back, and Page N', async () => {
    serveBy((_limit?: number, offset = 0) =>
      Promise.resolve(offset === 0 ? aPage(20, 0) : offset === 20 ? aPage(20, 20) : aPage(3, 40)),
    );
    const user = userEvent.setup();
    renderWithApp(api, { route: '/calls' });

    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(within(pager()).getByText('Page 1')).toBeInTheDocument();
    expect(button('Previous')).toBeDisabled();
    expect(button('Next')).toBeEnabled();

    await user.click(button('Next'));
    await waitFor(() => expect(within(pager()).getByText('Page 2')).toBeInTheDocument());
    await waitFor(() => expect(rows()[0]).toHaveAccessibleName('Call with Member 20'));
    expect(api.calls.getHistoryPage).toHaveBeenLastCalledWith(20, 20, undefined);
    expect(button('Previous')).toBeEnabled();
    expect(button('Next')).toBeEnabled();

    await user.click(button('Next'));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(within(pager()).getByText('Page 3')).toBeInTheDocument();
    expect(api.calls.getHistoryPage).toHaveBeenLastCalledWith(20, 40, undefined);
    // A page that came back short is the last one.
    expect(button('Next')).toBeDisabled();
    expect(button('Previous')).toBeEnabled();

    await user.click(button('Previous'));
    await waitFor(() => expect(rows()[0]).toHaveAccessibleName('Call with Member 20'));
    expect(within(pager()).getByText('Page 2')).toBeInTheDocument();
  });

  it('keeps Next disabled for a full page the server says is the last of the filter', async () => {
    api.calls.getHistoryPage.mockResolvedValue({ calls: aPage(20), hasMore: false });
    renderWithApp(api, { route: '/calls' });
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(button('Next')).toBeDisabled();
  });

  it('keeps Next disabled for a page of 19 (a short page is the last)', async () => {
    serve(aPage(19));
    renderWithApp(api, { route: '/calls' });
    await waitFor(() => expect(rows()).toHaveLength(19));
    expect(button('Next')).toBeDisabled();
  });

  it("shows 'Failed to load call history' when the history fails, and loads again on Try Again", async () => {
    api.calls.getHistoryPage.mockRejectedValueOnce(new ApiError('Failed to fetch call history', 502));
    serveOnce([aCall({ recipientName: 'Bea' })]);
    const user = userEvent.setup();
    renderWithApp(api, { route: '/calls' });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load call history');
    expect(alert).not.toHaveTextContent('Failed to fetch call history');
    expect(button('Next')).toBeDisabled();

    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.queryByText('Failed to load call history')).not.toBeInTheDocument();
  });

  it("adds the server's own refusal under 'Failed to load call history'", async () => {
    api.calls.getHistoryPage.mockRejectedValue(
      new ApiError('Service temporarily unavailable', 503, 'Service temporarily unavailable'),
    );
    renderWithApp(api, { route: '/calls' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load call history');
    expect(alert).toHaveTextContent('Service temporarily unavailable');
  });

  it("keeps the list when only the stats fail, and says 'Failed to fetch call stats'", async () => {
    api.calls.getStats.mockRejectedValue(new ApiError('Failed to fetch call stats', 500));
    serve([aCall()]);
    renderWithApp(api, { route: '/calls' });

    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch call stats');
    expect(within(screen.getByRole('region', { name: 'Call Statistics' })).getAllByLabelText('Not available')).toHaveLength(4);
    expect(screen.queryByRole('figure', { name: 'Completed calls chart' })).not.toBeInTheDocument();
  });
});
