import type { MemberProfileDto, SuggestionDto } from '@mate/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { aPhoto, aProfile, aSuggestion, aUser, signedInApi, type FakeApi } from '../../testing/fake-api';
import { fakeChat } from '../../testing/fake-chat';
import { renderWithApp } from '../../testing/render';

/** Longer than the card's three lines, with its end only in the profile view. */
const BIO =
  'Weekend climber, weekday architect. I bake sourdough badly and tell stories well. ' +
  'Looking for someone who laughs at their own jokes — the last line of this bio is a secret handshake.';
const INTERESTS = ['Hiking', 'Music', 'Cooking', 'Art', 'Travel', 'Yoga', 'Reading', 'Photography'];
const PHOTOS = [aPhoto(1), aPhoto(2), aPhoto(3)];

/** Sam's whole profile as GET /api/profile/u1 answers it. */
const samProfile = (overrides: Partial<MemberProfileDto> = {}): MemberProfileDto => ({
  ...aProfile({
    id: 'p-sam',
    userId: 'u1',
    name: 'Sam',
    age: 31,
    bio: BIO,
    location: 'Lisbon, Portugal',
    height: 178,
    occupation: 'Architect',
    education: "Master's in Architecture",
    lookingFor: 'not-sure',
    interests: INTERESTS,
    photos: PHOTOS,
    profilePicture: PHOTOS[0].url,
    smoking: 'never',
    drinking: 'socially',
    exercise: 'daily',
    pets: 'dog',
  }),
  distance: 'about 20 km',
  ...overrides,
});

const dialog = () => screen.getByRole('dialog');

/** Everything the card cannot show is in the open view. */
function expectWholeProfile(distance: string) {
  const view = within(dialog());
  expect(view.getAllByRole('img').map((img) => img.getAttribute('alt'))).toEqual([
    'Sam, photo 1 of 3',
    'Sam, photo 2 of 3',
    'Sam, photo 3 of 3',
  ]);
  expect(view.getByRole('heading', { name: 'About', level: 3 })).toBeInTheDocument();
  expect(view.getByText(BIO)).toBeInTheDocument();
  const interests = view.getByRole('list', { name: 'Interests' });
  expect(within(interests).getAllByRole('listitem').map((li) => li.textContent)).toEqual(INTERESTS);
  const fact = (term: string) => view.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
  expect(fact('Height')).toBe('178 cm');
  expect(fact('Occupation')).toBe('Architect');
  expect(fact('Education')).toBe("Master's in Architecture");
  expect(fact('Looking For')).toBe('not sure');
  expect(fact('Smoking')).toBe('Never');
  expect(fact('Drinking')).toBe('Socially');
  expect(fact('Exercise')).toBe('Daily');
  expect(fact('Pets')).toBe('Dog');
  expect(fact('Location')).toBe('Lisbon, Portugal');
  expect(fact('Distance')).toBe(distance);
}

describe('member profile view (issue 25)', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = signedInApi();
    api.profile.getUserProfile.mockResolvedValue(samProfile());
  });

  describe('from the Discover card', () => {
    const sam: SuggestionDto = aSuggestion(1, {
      name: 'Sam',
      age: 31,
      bio: BIO,
      interests: INTERESTS,
      location: 'Lisbon, Portugal',
      occupation: 'Architect',
      photos: PHOTOS,
      distance: 'about 10 km',
    });

    async function openDiscover() {
      api.matching.getSuggestions.mockResolvedValueOnce([sam, aSuggestion(2)]);
      api.matching.like.mockResolvedValue({ matched: false });
      api.matching.pass.mockResolvedValue({ passed: true });
      renderWithApp(api, { route: '/discover' });
      await screen.findByRole('article', { name: 'Sam, 31' });
    }

    it("'+3 more' opens the whole profile (the card's distance label); Escape closes it and the focus returns", async () => {
      const user = userEvent.setup();
      await openDiscover();
      const more = screen.getByRole('button', { name: '+3 more' });
      await user.click(more);
      expect(dialog()).toHaveAccessibleName('Sam, 31');
      await waitFor(() => expect(within(dialog()).getByText('Height', { selector: 'dt' })).toBeInTheDocument());
      expect(api.profile.getUserProfile).toHaveBeenCalledWith('u1');
      expectWholeProfile('about 10 km');

      await user.keyboard('{Escape}');
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(more).toHaveFocus();
      // The arrow keys were the view's, not a swipe.
      expect(api.matching.like).not.toHaveBeenCalled();
    });

    it("'View profile' opens it too; its Like likes through the card's own call and closes the view", async () => {
      const user = userEvent.setup();
      await openDiscover();
      await user.click(screen.getByRole('button', { name: 'View profile' }));
      const like = within(dialog()).getByRole('button', { name: 'Like' });
      await user.click(like);
      expect(api.matching.like).toHaveBeenCalledWith('u1');
      expect(api.matching.like).toHaveBeenCalledTimes(1);
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      await screen.findByRole('article', { name: 'Member 2, 30' }, { timeout: 6000 });
      expect(screen.getByRole('button', { name: 'Like' })).toHaveFocus();
    });

    it('its Pass passes like the card and closes the view', async () => {
      const user = userEvent.setup();
      await openDiscover();
      await user.click(screen.getByRole('button', { name: 'View profile' }));
      await user.click(within(dialog()).getByRole('button', { name: 'Pass' }));
      expect(api.matching.pass).toHaveBeenCalledWith('u1');
      expect(api.matching.like).not.toHaveBeenCalled();
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      await screen.findByRole('article', { name: 'Member 2, 30' }, { timeout: 6000 });
    });

    it('turns the photos with Next and Previous, and with the arrow keys', async () => {
      const user = userEvent.setup();
      await openDiscover();
      await user.click(screen.getByRole('button', { name: 'View profile' }));
      const view = within(dialog());
      expect(view.getByText('Photo 1 of 3')).toBeInTheDocument();
      await user.click(view.getByRole('button', { name: 'Next photo' }));
      expect(view.getByText('Photo 2 of 3')).toBeInTheDocument();
      await user.keyboard('{ArrowRight}');
      expect(view.getByText('Photo 3 of 3')).toBeInTheDocument();
      expect(view.getByRole('button', { name: 'Next photo' })).toHaveAttribute('aria-disabled', 'true');
      await user.click(view.getByRole('button', { name: 'Previous photo' }));
      expect(view.getByText('Photo 2 of 3')).toBeInTheDocument();
      expect(api.matching.like).not.toHaveBeenCalled();
      expect(api.matching.pass).not.toHaveBeenCalled();
    });

    it("offers each photo in every size for the dialog's box; only the first loads before the strip turns", async () => {
      const user = userEvent.setup();
      await openDiscover();
      await user.click(screen.getByRole('button', { name: 'View profile' }));
      const [first, second, third] = within(dialog()).getAllByRole('img');
      expect(second).toHaveAttribute(
        'srcset',
        'http://api.test/api/photos/files/ph2/thumb.webp 200w, http://api.test/api/photos/files/ph2/medium.webp 600w, http://api.test/api/photos/files/ph2/large.webp 1200w',
      );
      // The whole phone screen's width, else the 560 px dialog; a 4:5 photo 1.25 times as tall.
      expect(second).toHaveAttribute('sizes', '(max-width: 600px) 125vw, 700px');
      expect(first).not.toHaveAttribute('loading', 'lazy');
      expect(second).toHaveAttribute('loading', 'lazy');
      expect(third).toHaveAttribute('loading', 'lazy');
    });
  });

  it("opens from a Messages row's own button (with the server's distance) while the row still opens the chat", async () => {
    const user = userEvent.setup();
    fakeChat(api, aUser().id).match({ id: 'u1', name: 'Sam' });
    renderWithApp(api, { route: '/matches' });
    const open = await screen.findByRole('button', { name: "View Sam's profile" });
    expect(screen.getByRole('link', { name: /Sam/ })).toHaveAttribute('href', '/chat/u1');
    await user.click(open);
    expect(dialog()).toHaveAccessibleName('Sam, 31');
    await waitFor(() => expectWholeProfile('about 20 km'));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(open).toHaveFocus();
  });

  it('opens from the name and photo in the chat header; Close closes it and the focus returns', async () => {
    const user = userEvent.setup();
    const chat = fakeChat(api, aUser().id);
    chat.match({ id: 'u1', name: 'Sam' }, [{ from: 'them', content: 'Hi!' }]);
    renderWithApp(api, { route: '/chat/u1', realtime: chat.realtime });
    const heading = await screen.findByRole('heading', { name: 'Sam', level: 1 });
    const open = within(heading).getByRole('button', { name: 'Sam' });
    await user.click(open);
    await waitFor(() => expectWholeProfile('about 20 km'));
    expect(within(dialog()).queryByRole('button', { name: 'Like' })).not.toBeInTheDocument();
    await user.click(within(dialog()).getByRole('button', { name: 'Close profile' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The dialog hands the focus back as it unmounts; on a busy machine that lands a tick later.
    await waitFor(() => expect(open).toHaveFocus());
  });
});
