import { ApiError } from '@mate/api-client';
import {
  BLOCK_RELOAD_DELAY_MS,
  BLOCK_REASON_MAX_LENGTH,
  REPORT_CLOSE_DELAY_MS,
  REPORT_DETAILS_MAX_LENGTH,
  SafetyMessages,
  UNMATCH_RELOAD_DELAY_MS,
  type BlockResultDto,
  type ReportResultDto,
  type UnmatchResultDto,
} from '@mate/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aProfile, aUser, signedInApi, type FakeApi } from '../../testing/fake-api';
import { fakeChat, type FakeChat } from '../../testing/fake-chat';
import { renderWithApp } from '../../testing/render';

const selfId = aUser().id;
const SAM = { id: 'u1', name: 'Sam' };
const LEE = { id: 'u2', name: 'Lee' };

const location = () => screen.getByTestId('location');

/** A promise the test settles when it chooses. */
function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Moves the fake clock (react-query delivers results on a 0 ms timer, so 0 flushes them). */
async function elapse(ms = 0) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

const blocked: BlockResultDto = {
  id: 'b1',
  blockedId: SAM.id,
  name: 'Sam',
  photo: null,
  createdAt: '2026-11-23T10:00:00.000Z',
};

describe('Chat safety menu: Block, Unmatch and Report (spec 000 §4 Safety actions)', () => {
  let api: FakeApi;
  let chat: FakeChat;

  beforeEach(() => {
    api = signedInApi();
    api.profile.getUserProfile.mockResolvedValue({
      ...aProfile({ userId: SAM.id, name: 'Sam' }),
      id: 'p-sam',
    });
    chat = fakeChat(api, selfId);
    chat.match(SAM, [{ from: 'them', content: 'hello' }]);
    chat.match(LEE);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  async function choose(action: 'Unmatch' | 'Block' | 'Report') {
    renderWithApp(api, { route: `/chat/${SAM.id}`, realtime: chat.realtime });
    await screen.findByRole('heading', { name: 'Sam', level: 1 });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Safety options' }));
    await user.click(screen.getByRole('menuitem', { name: action }));
    return user;
  }

  it("blocks with an optional reason: 'User Blocked', then after 1.5 s the page reloads onto Messages without the conversation", async () => {
    const request = deferred<BlockResultDto>();
    api.safety.block.mockImplementation(() => request.promise);
    const user = await choose('Block');

    const dialog = screen.getByRole('alertdialog', { name: 'Block Sam?' });
    expect(dialog).toHaveTextContent("You won't see each other anymore");
    const reason = within(dialog).getByRole('textbox', { name: 'Reason (optional)' });
    expect(reason).toHaveAttribute('maxLength', String(BLOCK_REASON_MAX_LENGTH));
    await user.type(reason, ' rude ');
    expect(within(dialog).getByText(`6/${BLOCK_REASON_MAX_LENGTH}`)).toBeInTheDocument();

    const confirm = within(dialog).getByRole('button', { name: 'Block' });
    await user.click(confirm);
    expect(api.safety.block).toHaveBeenCalledWith(SAM.id, 'rude');
    // Pending: no second request, no way out half-way.
    expect(confirm).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await user.click(confirm);
    await user.keyboard('{Escape}');
    expect(api.safety.block).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alertdialog', { name: 'Block Sam?' })).toBeInTheDocument();

    vi.useFakeTimers();
    // safety-service has ended the match; chat-service closed the conversation.
    chat.end(SAM.id);
    request.resolve(blocked);
    await elapse();
    const done = screen.getByRole('dialog', { name: 'User Blocked' });
    expect(within(done).getByRole('status')).toHaveTextContent("You won't see each other anymore");
    expect(location()).toHaveTextContent(`/chat/${SAM.id}`);

    await elapse(BLOCK_RELOAD_DELAY_MS - 1);
    expect(screen.getByRole('dialog', { name: 'User Blocked' })).toBeInTheDocument();
    await elapse(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/matches$/);
    // The reload's reads answer (their results come on timers too).
    await elapse(100);
    vi.useRealTimers();

    expect(await screen.findByRole('link', { name: /Lee/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Sam/ })).not.toBeInTheDocument();
  }, 15_000);

  it('sends no reason when none is typed', async () => {
    api.safety.block.mockResolvedValue(blocked);
    const user = await choose('Block');
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Block' }));
    expect(await screen.findByRole('dialog', { name: 'User Blocked' })).toBeInTheDocument();
    expect(api.safety.block).toHaveBeenCalledWith(SAM.id, undefined);
  });

  it("says 'Failed to block user' when the block fails, or the server's own words, and lets the member try again", async () => {
    api.safety.block
      .mockRejectedValueOnce(new ApiError(SafetyMessages.blockFailed, 503))
      .mockRejectedValueOnce(new ApiError(SafetyMessages.tooManyBlocks, 429, SafetyMessages.tooManyBlocks))
      .mockResolvedValueOnce(blocked);
    const user = await choose('Block');
    const dialog = screen.getByRole('alertdialog', { name: 'Block Sam?' });

    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to block user');
    expect(within(dialog).getByRole('button', { name: 'Block' })).toBeEnabled();

    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    expect(await within(dialog).findByText(SafetyMessages.tooManyBlocks)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    expect(await screen.findByRole('dialog', { name: 'User Blocked' })).toBeInTheDocument();
    expect(location()).toHaveTextContent(`/chat/${SAM.id}`);
  });

  it('Cancel closes the block dialog without blocking', async () => {
    const user = await choose('Block');
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(api.safety.block).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Safety options' })).toHaveFocus();
  });

  it("unmatches after confirmation: 'Unmatched', then after 1.5 s the page reloads onto Messages", async () => {
    const request = deferred<UnmatchResultDto>();
    api.safety.unmatch.mockImplementation(() => request.promise);
    const user = await choose('Unmatch');

    const dialog = screen.getByRole('alertdialog', { name: 'Unmatch Sam?' });
    // Cancel has the focus first: Enter never unmatches by accident.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    const confirm = within(dialog).getByRole('button', { name: 'Unmatch' });
    await user.click(confirm);
    expect(api.safety.unmatch).toHaveBeenCalledWith(SAM.id);
    expect(confirm).toBeDisabled();
    await user.click(confirm);
    expect(api.safety.unmatch).toHaveBeenCalledTimes(1);

    vi.useFakeTimers();
    chat.end(SAM.id);
    request.resolve({ unmatched: true, matchId: 'm1' });
    await elapse();
    expect(screen.getByRole('dialog', { name: 'Unmatched' })).toBeInTheDocument();
    await elapse(UNMATCH_RELOAD_DELAY_MS - 1);
    expect(location()).toHaveTextContent(`/chat/${SAM.id}`);
    await elapse(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/matches$/);
    // The reload's reads answer (their results come on timers too).
    await elapse(100);
    vi.useRealTimers();

    expect(await screen.findByRole('link', { name: /Lee/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Sam/ })).not.toBeInTheDocument();
  }, 15_000);

  it("says 'Failed to unmatch' when the unmatch fails, or the server's own words", async () => {
    api.safety.unmatch
      .mockRejectedValueOnce(new ApiError(SafetyMessages.unmatchFailed, 500))
      .mockRejectedValueOnce(new ApiError(SafetyMessages.notMatched, 404, SafetyMessages.notMatched));
    const user = await choose('Unmatch');
    const dialog = screen.getByRole('alertdialog', { name: 'Unmatch Sam?' });
    await user.click(within(dialog).getByRole('button', { name: 'Unmatch' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to unmatch');
    await user.click(within(dialog).getByRole('button', { name: 'Unmatch' }));
    expect(await within(dialog).findByText(SafetyMessages.notMatched)).toBeInTheDocument();
    expect(location()).toHaveTextContent(`/chat/${SAM.id}`);
  });

  it("reports with one of the six reasons and optional details: 'Report Submitted', closing after 2 s in the chat", async () => {
    const request = deferred<ReportResultDto>();
    api.safety.report.mockImplementation(() => request.promise);
    const user = await choose('Report');

    const dialog = screen.getByRole('dialog', { name: 'Report Sam' });
    const reason = within(dialog).getByRole('combobox', { name: 'Reason' });
    expect(reason).toHaveValue('inappropriate_content');
    expect(
      within(reason)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Inappropriate content', 'Harassment', 'Fake profile', 'Spam', 'Underage', 'Other']);
    await user.selectOptions(reason, 'Harassment');
    const details = within(dialog).getByRole('textbox', { name: 'Details (optional)' });
    expect(details).toHaveAttribute('maxLength', String(REPORT_DETAILS_MAX_LENGTH));
    await user.type(details, 'Kept insulting me');
    expect(within(dialog).getByText(`17/${REPORT_DETAILS_MAX_LENGTH}`)).toBeInTheDocument();

    const submit = within(dialog).getByRole('button', { name: 'Submit Report' });
    await user.click(submit);
    expect(api.safety.report).toHaveBeenCalledWith(SAM.id, 'harassment', 'Kept insulting me');
    expect(submit).toBeDisabled();
    await user.click(submit);
    expect(api.safety.report).toHaveBeenCalledTimes(1);

    vi.useFakeTimers();
    request.resolve({
      id: 'r1',
      reportedId: SAM.id,
      reason: 'harassment',
      createdAt: '2026-11-23T10:00:00.000Z',
    });
    await elapse();
    const done = screen.getByRole('dialog', { name: 'Report Submitted' });
    expect(done).toHaveTextContent('Thank you for helping keep our community safe');
    await elapse(REPORT_CLOSE_DELAY_MS - 1);
    expect(screen.getByRole('dialog', { name: 'Report Submitted' })).toBeInTheDocument();
    await elapse(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // A report does not end the conversation.
    expect(location()).toHaveTextContent(`/chat/${SAM.id}`);
    expect(screen.getByRole('log', { name: 'Messages with Sam' })).toBeInTheDocument();
  }, 15_000);

  it('reports inappropriate content by default, without details', async () => {
    api.safety.report.mockResolvedValue({
      id: 'r1',
      reportedId: SAM.id,
      reason: 'inappropriate_content',
      createdAt: '2026-11-23T10:00:00.000Z',
    });
    const user = await choose('Report');
    await user.click(screen.getByRole('button', { name: 'Submit Report' }));
    expect(await screen.findByRole('dialog', { name: 'Report Submitted' })).toBeInTheDocument();
    expect(api.safety.report).toHaveBeenCalledWith(SAM.id, 'inappropriate_content', undefined);
  });

  it("says 'Failed to report user' when the report fails, or the server's own words (one report a day)", async () => {
    api.safety.report
      .mockRejectedValueOnce(new ApiError(SafetyMessages.reportFailed, 503))
      .mockRejectedValueOnce(
        new ApiError(SafetyMessages.alreadyReported, 409, SafetyMessages.alreadyReported),
      );
    const user = await choose('Report');
    const dialog = screen.getByRole('dialog', { name: 'Report Sam' });
    await user.click(within(dialog).getByRole('button', { name: 'Submit Report' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to report user');
    await user.click(within(dialog).getByRole('button', { name: 'Submit Report' }));
    expect(await within(dialog).findByText(SafetyMessages.alreadyReported)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Submit Report' })).toBeEnabled();
  });

  it('closing the success dialog early reloads at once', async () => {
    api.safety.block.mockResolvedValue(blocked);
    const user = await choose('Block');
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Block' }));
    await screen.findByRole('dialog', { name: 'User Blocked' });
    chat.end(SAM.id);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(location()).toHaveTextContent(/^\/matches$/));
    expect(await screen.findByRole('link', { name: /Lee/ })).toBeInTheDocument();
  });
});
