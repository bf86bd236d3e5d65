import { ApiError } from '@mate/api-client';
import {
  AUTH_TOKEN_KEY,
  CHAT_MESSAGE_MAX_LENGTH,
  CallMessages,
  ChatMessages,
  LEGACY_TOKEN_KEY,
} from '@mate/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../app/AppRoutes';
import { aProfile, aUser, signedInApi, type FakeApi } from '../../testing/fake-api';
import { fakeCall, type FakeCall } from '../../testing/fake-call';
import { fakeChat, type FakeChat } from '../../testing/fake-chat';
import { renderWithApp } from '../../testing/render';
import { FIRST_CONNECT_GRACE_MS } from '../../chat/useChat';
import { NEW_MATCH_RETRY_MS } from './useOpenConversation';

const selfId = aUser().id;
const SAM = { id: 'u1', name: 'Sam' };

const log = () => screen.getByRole('log', { name: 'Messages with Sam' });
const bubbles = () => within(log()).queryAllByRole('listitem');
const input = () => screen.getByRole('textbox', { name: 'Message' });

describe('ChatScreen (/chat/{userId})', () => {
  let api: FakeApi;
  let chat: FakeChat;

  beforeEach(() => {
    api = signedInApi();
    api.profile.getUserProfile.mockResolvedValue({
      ...aProfile({ userId: SAM.id, name: 'Sam' }),
      id: 'p-sam',
    });
    chat = fakeChat(api, selfId);
  });

  /** With `call`, the live call is that fake CallContext value (the browser's media stood in). */
  async function openChat(userId = SAM.id, call?: FakeCall) {
    renderWithApp(api, {
      route: `/chat/${userId}`,
      realtime: chat.realtime,
      children: call?.wrap(<AppRoutes />),
    });
    await screen.findByRole('textbox', { name: 'Message' });
  }

  it("shows the member's name in the header, 'Chat' while it is unknown, and a back link to Messages", async () => {
    chat.match(SAM);
    let answer: (value: unknown) => void = () => undefined;
    api.profile.getUserProfile.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)) as never);
    await openChat();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Chat');
    answer({ ...aProfile({ userId: SAM.id, name: 'Sam' }), id: 'p-sam' });
    expect(await screen.findByRole('heading', { name: 'Sam', level: 1 })).toBeInTheDocument();
    expect(api.profile.getUserProfile).toHaveBeenCalledWith(SAM.id);
    expect(screen.getByRole('link', { name: 'Back to Messages' })).toHaveAttribute('href', '/matches');
  });

  it("falls back to 'User' when the name cannot be fetched", async () => {
    chat.match(SAM);
    api.profile.getUserProfile.mockRejectedValue(new ApiError('Failed to get user profile', 500));
    await openChat();
    expect(await screen.findByRole('heading', { name: 'User', level: 1 })).toBeInTheDocument();
  });

  it("shows 'No messages yet' and 'Say hi to start the conversation!' in an empty conversation", async () => {
    chat.match(SAM);
    await openChat();
    expect(await screen.findByRole('heading', { name: 'No messages yet' })).toBeInTheDocument();
    expect(screen.getByText('Say hi to start the conversation!')).toBeInTheDocument();
  });

  it("shows each message with a time, own ones with '✓ Sent' or '✓✓ Read', and marks the conversation read on opening", async () => {
    chat.match(SAM, [
      { from: 'them', content: 'Hi there' },
      { from: 'me', content: 'Hello!', isRead: true },
      { from: 'me', content: 'How are you?' },
    ]);
    await openChat();
    await waitFor(() => expect(bubbles()).toHaveLength(3));
    const [theirs, read, sent] = bubbles();
    expect(theirs).toHaveClass('chat-bubble--theirs');
    expect(theirs).toHaveTextContent('Hi there');
    expect(theirs).not.toHaveTextContent('Sent');
    expect(read).toHaveClass('chat-bubble--mine');
    expect(read).toHaveTextContent('✓✓ Read');
    expect(sent).toHaveTextContent('✓ Sent');
    for (const bubble of bubbles()) expect(within(bubble).getByText(/\d{1,2}:\d{2}/).tagName).toBe('TIME');

    // Opening marks it read (spec 000 §4): mark_as_read on the socket.
    await waitFor(() =>
      expect(chat.emitted('mark_as_read')).toEqual([
        { event: 'mark_as_read', payload: { otherUserId: SAM.id } },
      ]),
    );
    expect(chat.messages(SAM.id)[0].isRead).toBe(true);
  });

  it('renders message content as text: markup shows as typed, line breaks stay, nothing is parsed', async () => {
    chat.match(SAM, [{ from: 'them', content: '<img src=x onerror="alert(1)"><b>bold</b>\nsecond line' }]);
    await openChat();
    await screen.findByRole('log', { name: 'Messages with Sam' });
    const text = await within(log()).findByText(/second line/);
    expect(text.textContent).toBe('<img src=x onerror="alert(1)"><b>bold</b>\nsecond line');
    expect(log().querySelector('b, img')).toBeNull();
    expect(text).toHaveClass('chat-bubble__text');
  });

  it('appends a message from the other member live, marks it read, and shows typing... while they type', async () => {
    chat.match(SAM);
    await openChat();
    await screen.findByText('No messages yet');
    chat.typing(SAM.id);
    expect(await screen.findByText('typing...')).toBeInTheDocument();
    chat.stopsTyping(SAM.id);
    await waitFor(() => expect(screen.queryByText('typing...')).not.toBeInTheDocument());

    chat.typing(SAM.id);
    await screen.findByText('typing...');
    chat.receive(SAM.id, 'just arrived');
    expect(await within(log()).findByText('just arrived')).toBeInTheDocument();
    // A message ends the typing, and it is read at once in an open conversation.
    expect(screen.queryByText('typing...')).not.toBeInTheDocument();
    await waitFor(() => expect(chat.messages(SAM.id)[0].isRead).toBe(true));
  });

  it('sends with Enter, trimmed; Shift+Enter makes a new line; an empty message is not sent', async () => {
    chat.match(SAM);
    await openChat();
    const user = userEvent.setup();
    await user.type(input(), '   {Enter}');
    expect(chat.emitted('send_message')).toEqual([]);
    expect(screen.getByRole('button', { name: 'Send message' })).toBeDisabled();

    await user.clear(input());
    await user.type(input(), '  first line{Shift>}{Enter}{/Shift}second line  ');
    expect(input()).toHaveValue('  first line\nsecond line  ');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(chat.messages(SAM.id)).toHaveLength(1));
    expect(chat.emitted('send_message')[0].payload).toMatchObject({
      recipientId: SAM.id,
      content: 'first line\nsecond line',
    });
    expect(input()).toHaveValue('');
    expect(input()).toHaveFocus();
    const bubble = await within(log()).findByText('first line second line', {
      normalizer: (s) => s.replace(/\s+/g, ' ').trim(),
    });
    expect(bubble.closest('li')).toHaveTextContent('✓ Sent');
  });

  it('sends with the send button', async () => {
    chat.match(SAM);
    await openChat();
    await userEvent.type(input(), 'by button');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await within(log()).findByText('by button')).toBeInTheDocument();
    expect(chat.messages(SAM.id).map((m) => m.content)).toEqual(['by button']);
  });

  it('emits typing while typing and stop_typing after sending', async () => {
    chat.match(SAM);
    await openChat();
    await userEvent.type(input(), 'hey');
    expect(chat.emitted('typing')).toEqual([{ event: 'typing', payload: { recipientId: SAM.id } }]);
    expect(chat.emitted('stop_typing')).toEqual([]);
    await userEvent.keyboard('{Enter}');
    expect(chat.emitted('stop_typing')).toEqual([{ event: 'stop_typing', payload: { recipientId: SAM.id } }]);
  });

  it('emits stop_typing after 1 s without input', async () => {
    chat.match(SAM);
    await openChat();
    await userEvent.type(input(), 'thinking');
    expect(chat.emitted('stop_typing')).toEqual([]);
    await waitFor(() => expect(chat.emitted('stop_typing')).toHaveLength(1), { timeout: 3000 });
    expect(chat.emitted('typing')).toHaveLength(1);
  });

  it('counts characters near the 2,000 limit and refuses a longer message', async () => {
    chat.match(SAM);
    await openChat();
    fireEvent.change(input(), { target: { value: 'a'.repeat(1799) } });
    expect(screen.queryByText(/\/ 2,000/)).not.toBeInTheDocument();
    fireEvent.change(input(), { target: { value: 'a'.repeat(CHAT_MESSAGE_MAX_LENGTH) } });
    expect(screen.getByText('2,000 / 2,000')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled();
    fireEvent.change(input(), { target: { value: 'a'.repeat(CHAT_MESSAGE_MAX_LENGTH + 1) } });
    expect(screen.getByText('2,001 / 2,000')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(ChatMessages.tooLong);
    expect(screen.getByRole('button', { name: 'Send message' })).toBeDisabled();
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(chat.emitted('send_message')).toEqual([]);
  });

  it("says 'Socket not connected' while offline; a message sent then waits as pending and goes when the connection returns", async () => {
    chat.match(SAM, [{ from: 'them', content: 'you there?' }]);
    await openChat();
    await screen.findByRole('log', { name: 'Messages with Sam' });
    await within(log()).findByText('you there?');
    expect(screen.queryByText('Socket not connected')).not.toBeInTheDocument();

    chat.goOffline();
    expect(await screen.findByText('Socket not connected')).toBeInTheDocument();
    await userEvent.type(input(), 'sent offline{Enter}');
    const pending = (await within(log()).findByText('sent offline')).closest('li') as HTMLElement;
    expect(pending).toHaveTextContent('Sending...');
    expect(chat.messages(SAM.id)).toHaveLength(1);

    chat.comeBack();
    await waitFor(() => expect(screen.queryByText('Socket not connected')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(within(log()).getByText('sent offline').closest('li') as HTMLElement).toHaveTextContent(
        '✓ Sent',
      ),
    );
    expect(chat.messages(SAM.id).map((m) => m.content)).toEqual(['you there?', 'sent offline']);
  });

  it("gives a page's first connection a moment before saying 'Socket not connected'", async () => {
    chat = fakeChat(api, selfId, { connectOnCreate: false });
    chat.match(SAM);
    await openChat();
    await screen.findByRole('heading', { name: 'No messages yet' });
    expect(screen.queryByText('Socket not connected')).not.toBeInTheDocument();
    expect(
      await screen.findByText('Socket not connected', {}, { timeout: FIRST_CONNECT_GRACE_MS * 2 }),
    ).toBeInTheDocument();
    chat.comeBack();
    await waitFor(() => expect(screen.queryByText('Socket not connected')).not.toBeInTheDocument());
  });

  it('shows a refused message with its error and sends it again with Retry', async () => {
    chat.match(SAM);
    await openChat();
    chat.refuseNextSend(ChatMessages.notMatched);
    await userEvent.type(input(), 'refused once{Enter}');
    const bubble = () => within(log()).getByText('refused once').closest('li') as HTMLElement;
    await waitFor(() => expect(bubble()).toHaveTextContent(`Not sent: ${ChatMessages.notMatched}`));
    expect(chat.messages(SAM.id)).toHaveLength(0);

    await userEvent.click(within(bubble()).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(bubble()).toHaveTextContent('✓ Sent'));
    expect(chat.messages(SAM.id).map((m) => m.content)).toEqual(['refused once']);
    const [first, again] = chat.emitted('send_message');
    expect(again.payload.clientId).toBe(first.payload.clientId);
  });

  it("turns own messages to '✓✓ Read' when the other member reads them", async () => {
    chat.match(SAM, [{ from: 'me', content: 'did you see this?' }]);
    await openChat();
    const bubble = () => within(log()).getByText('did you see this?').closest('li') as HTMLElement;
    await waitFor(() => expect(bubble()).toHaveTextContent('✓ Sent'));
    chat.reads(SAM.id);
    await waitFor(() => expect(bubble()).toHaveTextContent('✓✓ Read'));
  });

  it('loads older messages from the top and keeps them in order', async () => {
    chat.match(
      SAM,
      Array.from({ length: 60 }, (_, i) => ({
        from: i % 2 ? ('me' as const) : ('them' as const),
        content: `message ${i + 1}`,
      })),
    );
    await openChat();
    await waitFor(() => expect(bubbles()).toHaveLength(50));
    expect(bubbles()[0]).toHaveTextContent('message 11');
    await userEvent.click(screen.getByRole('button', { name: 'Load older messages' }));
    await waitFor(() => expect(bubbles()).toHaveLength(60));
    expect(api.chat.getConversation).toHaveBeenLastCalledWith(SAM.id, { before: 11 });
    expect(bubbles().map((b) => within(b).getByText(/^message/).textContent)).toEqual(
      Array.from({ length: 60 }, (_, i) => `message ${i + 1}`),
    );
    expect(screen.queryByRole('button', { name: 'Load older messages' })).not.toBeInTheDocument();
  });

  it('loads older messages when scrolled to the top', async () => {
    chat.match(
      SAM,
      Array.from({ length: 55 }, (_, i) => ({ from: 'them' as const, content: `message ${i + 1}` })),
    );
    await openChat();
    await waitFor(() => expect(bubbles()).toHaveLength(50));
    act(() => {
      log().scrollTop = 0;
      fireEvent.scroll(log());
    });
    await waitFor(() => expect(bubbles()).toHaveLength(55));
  });

  it("shows 'Failed to load conversation' with Try Again when it cannot load", async () => {
    chat.match(SAM, [{ from: 'them', content: 'after the retry' }]);
    api.chat.getConversation.mockRejectedValueOnce(new ApiError(ChatMessages.conversationFailed, 503));
    await openChat();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load conversation');
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await within(log()).findByText('after the retry')).toBeInTheDocument();
  });

  it('says so, with a way back to Messages, for a member who is not a match', async () => {
    api.profile.getUserProfile.mockRejectedValue(new ApiError('Failed to get user profile', 404));
    api.matching.getMyMatches.mockResolvedValue([]);
    await openChat('stranger');
    expect(await screen.findByRole('heading', { name: 'Conversation not found' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('main')).getAllByRole('link', { name: 'Back to Messages' }).at(-1),
    ).toHaveAttribute('href', '/matches');
    expect(screen.queryByRole('log')).not.toBeInTheDocument();
  });

  it('waits for the conversation of a match made a moment ago (chat-service learns of it by event)', async () => {
    api.matching.getMyMatches.mockImplementation(async () => {
      // The match exists; its conversation opens while the screen waits.
      chat.match(SAM);
      return [
        {
          matchId: 'm1',
          userId: SAM.id,
          name: 'Sam',
          profilePicture: null,
          matchedAt: new Date().toISOString(),
        },
      ];
    });
    renderWithApp(api, { route: `/chat/${SAM.id}`, realtime: chat.realtime });
    expect(await screen.findByText('Loading messages...')).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { name: 'No messages yet' }, { timeout: NEW_MATCH_RETRY_MS * 4 }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Conversation not found')).not.toBeInTheDocument();
    expect(api.chat.getConversation).toHaveBeenCalledTimes(2);
  });

  it('starts a call with Video Call and opens the call screen once it is calling', async () => {
    chat.match(SAM);
    const call = fakeCall();
    let started: () => void = () => undefined;
    call.actions.startCall.mockImplementationOnce(
      (userId, name) =>
        new Promise<void>((resolve) => {
          started = () => {
            call.set({ phase: 'calling', peerId: userId, peerName: name });
            resolve();
          };
        }),
    );
    await openChat(SAM.id, call);
    await screen.findByRole('heading', { name: 'Sam', level: 1 });
    const button = screen.getByRole('button', { name: 'Video Call' });
    await userEvent.click(button);
    expect(call.actions.startCall).toHaveBeenCalledWith(SAM.id, 'Sam');
    // Camera and microphone are being asked for: one press starts one call.
    expect(button).toBeDisabled();
    expect(screen.getByTestId('location')).toHaveTextContent(`/chat/${SAM.id}`);

    started();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/call/${SAM.id}`));
    expect(await screen.findByRole('heading', { name: 'Calling Sam...', level: 1 })).toBeInTheDocument();
    expect(call.actions.startCall).toHaveBeenCalledTimes(1);
  });

  it("alerts 'Failed to start call. Please check camera/microphone permissions.' and stays in the chat when media is refused", async () => {
    chat.match(SAM);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const call = fakeCall();
    call.actions.startCall.mockRejectedValueOnce(new Error(CallMessages.startFailed));
    await openChat(SAM.id, call);
    await userEvent.click(screen.getByRole('button', { name: 'Video Call' }));
    await waitFor(() =>
      expect(alert).toHaveBeenCalledWith('Failed to start call. Please check camera/microphone permissions.'),
    );
    expect(screen.getByTestId('location')).toHaveTextContent(`/chat/${SAM.id}`);
    expect(screen.getByRole('button', { name: 'Video Call' })).toBeEnabled();
  });

  it.each([CallMessages.busy, CallMessages.notMatched])(
    "alerts the server's refusal '%s' and stays in the chat without opening the call screen",
    async (refusal) => {
      chat.match(SAM);
      const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
      const call = fakeCall();
      call.actions.startCall.mockRejectedValueOnce(new Error(refusal));
      await openChat(SAM.id, call);
      await userEvent.click(screen.getByRole('button', { name: 'Video Call' }));
      await waitFor(() => expect(alert).toHaveBeenCalledWith(refusal));
      expect(screen.getByTestId('location')).toHaveTextContent(`/chat/${SAM.id}`);
      expect(screen.getByRole('button', { name: 'Video Call' })).toBeEnabled();
    },
  );

  it('answers with Video Call when this member is calling us right now, then opens the call screen', async () => {
    chat.match(SAM);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const call = fakeCall({ phase: 'incoming', peerId: SAM.id, peerName: 'Sam' });
    await openChat(SAM.id, call);
    // In a browser the ringing overlay makes the page inert at once (jsdom does not enforce
    // `inert`): this is the press that lands as the ring arrives, before the overlay covers it.
    await userEvent.click(screen.getByRole('button', { name: 'Video Call', hidden: true }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/call/${SAM.id}`));
    expect(call.actions.answer).toHaveBeenCalledTimes(1);
    expect(call.actions.startCall).not.toHaveBeenCalled();
    expect(alert).not.toHaveBeenCalled();
  });

  it('goes back to the call with Video Call while already in a call with this member, without a second call', async () => {
    chat.match(SAM);
    const call = fakeCall({ phase: 'in-call', peerId: SAM.id, peerName: 'Sam', answeredAt: Date.now() });
    await openChat(SAM.id, call);
    await userEvent.click(screen.getByRole('button', { name: 'Video Call' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/call/${SAM.id}`));
    expect(await screen.findByRole('heading', { name: 'In call with Sam', level: 1 })).toBeInTheDocument();
    expect(call.actions.startCall).not.toHaveBeenCalled();
  });

  it('has a safety menu with Unmatch, Block and Report, each opening its dialog', async () => {
    chat.match(SAM);
    await openChat();
    await screen.findByRole('heading', { name: 'Sam', level: 1 });
    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Safety options' });
    await user.click(toggle);
    const menu = screen.getByRole('menu', { name: 'Safety options' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Unmatch', 'Block', 'Report']);
    expect(within(menu).getByRole('menuitem', { name: 'Unmatch' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(toggle).toHaveFocus();

    for (const [action, title] of [
      ['Unmatch', 'Unmatch Sam?'],
      ['Block', 'Block Sam?'],
      ['Report', 'Report Sam'],
    ]) {
      await user.click(toggle);
      await user.click(screen.getByRole('menuitem', { name: action }));
      const dialog = screen.getByRole(action === 'Report' ? 'dialog' : 'alertdialog', { name: title });
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
      expect(toggle).toHaveFocus();
    }
    expect(api.safety.block).not.toHaveBeenCalled();
    expect(api.safety.unmatch).not.toHaveBeenCalled();
    expect(api.safety.report).not.toHaveBeenCalled();
  });

  it("shows a conversation with a member who deleted their account as 'Unknown User', readable, with no way to reply or call", async () => {
    const gone = { id: 'anon-1', name: 'Unknown User', readOnly: true };
    chat.match(gone, [
      { from: 'me', content: 'Are you still coming?' },
    ]);
    api.profile.getUserProfile.mockRejectedValue(new ApiError('Profile not found', 404, 'Profile not found'));
    // Arriving from Messages: the list says the conversation is read-only.
    renderWithApp(api, { route: '/matches', realtime: chat.realtime });
    await userEvent.click(await screen.findByText('Unknown User'));
    expect(await screen.findByRole('heading', { name: 'Unknown User', level: 1 })).toBeInTheDocument();
    expect(await screen.findByText('Are you still coming?')).toBeInTheDocument();
    expect(screen.getByText(ChatMessages.partnerDeleted)).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('textbox', { name: 'Message' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Video Call' })).not.toBeInTheDocument();
    expect(api.profile.getUserProfile).not.toHaveBeenCalledWith(gone.id);
  });

  it('sends a visitor without a stored auth token to / (which sends a signed-in member on to the dashboard)', async () => {
    chat.match(SAM);
    api.matching.getMatchStats.mockResolvedValue({ matches: 1, likesReceived: 0, likesSent: 0 });
    api.profile.getCompletion.mockResolvedValue({ percentage: 50 });
    renderWithApp(api, { route: '/matches', realtime: chat.realtime });
    const row = await screen.findByRole('link', { name: /Sam/ });
    // The token is gone from storage (signed out in another tab): the chat does not open.
    window.localStorage.removeItem(AUTH_TOKEN_KEY);
    window.localStorage.removeItem(LEGACY_TOKEN_KEY);
    await userEvent.click(row);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/));
    expect(api.chat.getConversation).not.toHaveBeenCalled();
    expect(screen.queryByRole('textbox', { name: 'Message' })).not.toBeInTheDocument();
  });
});
