import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { aProfile, aUser, signedInApi, type FakeApi } from '../testing/fake-api';
import { fakeChat, type FakeChat } from '../testing/fake-chat';
import { renderWithApp } from '../testing/render';
import { pendingStorageKey } from './pending-store';

const selfId = aUser().id;

describe('the session chat engine', () => {
  let api: FakeApi;
  let chat: FakeChat;
  beforeEach(() => {
    api = signedInApi();
    api.profile.getUserProfile.mockResolvedValue({ ...aProfile({ userId: 'u1', name: 'Sam' }), id: 'p-sam' });
    chat = fakeChat(api, selfId);
    chat.match({ id: 'u1', name: 'Sam' });
  });

  it('keeps a message written offline in localStorage under the member id until it is stored', async () => {
    renderWithApp(api, { route: '/chat/u1', realtime: chat.realtime });
    await screen.findByRole('heading', { name: 'No messages yet' });
    chat.goOffline();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'kept for later{Enter}');
    await screen.findByText('Sending...');
    const saved = JSON.parse(window.localStorage.getItem(pendingStorageKey(selfId)) ?? '[]') as {
      content: string;
    }[];
    expect(saved.map((p) => p.content)).toEqual(['kept for later']);

    chat.comeBack();
    await waitFor(() => expect(window.localStorage.getItem(pendingStorageKey(selfId))).toBeNull());
    expect(chat.messages('u1').map((m) => m.content)).toEqual(['kept for later']);
  });

  it('sends what a previous visit left unsent once connected', async () => {
    window.localStorage.setItem(
      pendingStorageKey(selfId),
      JSON.stringify([
        {
          clientId: 'left-1',
          recipientId: 'u1',
          content: 'from before the reload',
          createdAt: '2026-11-23T09:00:00.000Z',
          status: 'pending',
        },
      ]),
    );
    renderWithApp(api, { route: '/chat/u1', realtime: chat.realtime });
    await waitFor(() => expect(chat.messages('u1').map((m) => m.clientId)).toEqual(['left-1']));
    expect(await screen.findByText('✓ Sent')).toBeInTheDocument();
  });

  it('catches up when the tab comes back to the front', async () => {
    renderWithApp(api, { route: '/chat/u1', realtime: chat.realtime });
    await screen.findByRole('heading', { name: 'No messages yet' });
    // Pushed while the tab slept: stored, but the push never reached it.
    chat.receive('u1', 'missed while asleep', { push: false });
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(await screen.findByText('missed while asleep')).toBeInTheDocument();
    expect(chat.emitted('sync_messages').at(-1)?.payload).toEqual({
      conversations: [{ userId: 'u1', afterSeq: 0 }],
    });
  });
});
