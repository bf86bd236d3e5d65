import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { aPhoto, aProfile, aUser, signedInApi, type FakeApi } from '../../testing/fake-api';
import { fakeChat, type FakeChat } from '../../testing/fake-chat';
import { renderWithApp } from '../../testing/render';
import { matchedText } from './NewMatchIntro';

const SAM_PHOTO = aPhoto(7).url;
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

const starterButtons = () =>
  within(screen.getByRole('list', { name: 'Conversation starters' })).getAllByRole('button');
const input = () => screen.getByRole('textbox', { name: 'Message' });

/** Issue 25: a conversation without messages introduces the match and offers three openers. */
describe('new-match chat', () => {
  let api: FakeApi;
  let chat: FakeChat;

  beforeEach(() => {
    api = signedInApi(aProfile({ interests: ['Music', 'Hiking', 'Art'], location: 'Porto', lookingFor: 'casual' }));
    api.profile.getUserProfile.mockResolvedValue({
      ...aProfile({
        id: 'p-sam',
        userId: 'u1',
        name: 'Sam',
        interests: ['Cooking', 'Hiking', 'Music'],
        location: 'Lisbon',
        lookingFor: 'casual',
        photos: [aPhoto(7)],
        profilePicture: SAM_PHOTO,
      }),
      distance: 'about 300 km',
    });
    api.matching.getMyMatches.mockResolvedValue([
      { matchId: 'm1', userId: 'u1', name: 'Sam', profilePicture: SAM_PHOTO, matchedAt: minutesAgo(5) },
    ]);
    chat = fakeChat(api, aUser().id);
    chat.match({ id: 'u1', name: 'Sam' });
  });

  async function openChat() {
    renderWithApp(api, { route: '/chat/u1', realtime: chat.realtime });
    await screen.findByRole('heading', { name: 'No messages yet' });
  }

  it("shows the match's photo and name, 'You matched …' and the spec's empty-state texts", async () => {
    await openChat();
    const log = screen.getByRole('log', { name: 'Messages with Sam' });
    expect(await within(log).findByText('You matched 5 minutes ago')).toBeInTheDocument();
    // An 80 px picture: the 200 px file, with the 600 px one offered to a 3x screen (issue 26).
    const picture = within(log).getByRole('img', { name: 'Sam' });
    expect(picture).toHaveAttribute('src', `http://api.test${SAM_PHOTO.replace('large.webp', 'thumb.webp')}`);
    expect(picture.getAttribute('srcset')).toContain(`http://api.test${SAM_PHOTO.replace('large.webp', 'medium.webp')} 600w`);
    expect(within(log).getByText('Sam')).toBeInTheDocument();
    expect(within(log).getByText('Say hi to start the conversation!')).toBeInTheDocument();
    expect(api.matching.getMyMatches).toHaveBeenCalled();
  });

  it('offers three starters, the shared interests first', async () => {
    await openChat();
    await within(screen.getByRole('list', { name: 'Conversation starters' })).findByRole('button', {
      name: /Hiking/,
    });
    expect(starterButtons().map((button) => button.textContent)).toEqual([
      "You're into Hiking too! What got you started?",
      "What's your favourite thing about Music?",
      "Looks like we're both after something casual. What does a great first date look like to you?",
    ]);
  });

  it('a tap puts the starter into the message input, with the focus, without sending it', async () => {
    const user = userEvent.setup();
    await openChat();
    const first = await screen.findByRole('button', { name: "You're into Hiking too! What got you started?" });
    await user.type(input(), 'draft');
    await user.click(first);
    expect(input()).toHaveValue("You're into Hiking too! What got you started?");
    expect(input()).toHaveFocus();
    expect(chat.emitted('send_message')).toEqual([]);
    expect(screen.getByRole('heading', { name: 'No messages yet' })).toBeInTheDocument();

    // The same starter again, after an edit, puts it back.
    await user.clear(input());
    await user.click(first);
    expect(input()).toHaveValue("You're into Hiking too! What got you started?");
  });

  it("reads 'You matched' with the app's relative times", () => {
    const now = Date.parse('2026-11-29T10:00:00Z');
    expect(matchedText('2026-11-29T09:59:40Z', now)).toBe('You matched just now');
    expect(matchedText('2026-11-29T07:00:00Z', now)).toBe('You matched 3 hours ago');
    expect(matchedText('2026-11-27T10:00:00Z', now)).toBe('You matched 2 days ago');
    expect(matchedText('2026-11-01T10:00:00Z', now)).toMatch(/^You matched on /);
  });
});
