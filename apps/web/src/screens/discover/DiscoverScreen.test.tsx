import { ApiError } from '@mate/api-client';
import { MatchingMessages, SWIPE_EXIT_MS, type SuggestionDto } from '@mate/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { aSuggestion, signedInApi, type FakeApi } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';

const suggestions = (...ns: number[]): SuggestionDto[] => ns.map((n) => aSuggestion(n));

/** The card on top, by its accessible name ('Member 1, 30'). */
const topCard = () => screen.getByRole('article');
const button = (name: string) => screen.getByRole('button', { name });

describe('DiscoverScreen', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = signedInApi();
    api.matching.like.mockResolvedValue({ matched: false });
    api.matching.pass.mockResolvedValue({ passed: true });
  });

  async function open(first: SuggestionDto[]) {
    api.matching.getSuggestions.mockResolvedValueOnce(first);
    renderWithApp(api, { route: '/discover' });
    if (first.length > 0) await screen.findByRole('article');
  }

  /**
   * How long a wait for the end of the 300 ms exit may take. The exit is a real timer, so this is
   * far more than waitFor's default second: a busy CI machine must not fail the test.
   */
  const EXIT_WAIT = { timeout: SWIPE_EXIT_MS * 20 };
  /** Waits out the exit: the card named `name` is on top. */
  const onTop = (name: string) => waitFor(() => expect(topCard()).toHaveAccessibleName(name), EXIT_WAIT);

  it("shows 'N potential matches', a Filters link, the card and the hint", async () => {
    await open(suggestions(1, 2, 3, 4, 5));
    expect(api.matching.getSuggestions).toHaveBeenCalledWith(20);
    expect(screen.getByRole('heading', { name: 'Discover', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('5 potential matches')).toBeInTheDocument();
    // The navigation has a Filters item too; this is the screen's own filter button.
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Filters' })).toHaveAttribute(
      'href',
      '/settings/filters',
    );
    expect(topCard()).toHaveAccessibleName('Member 1, 30');
    expect(screen.getByText('Swipe right to like • Swipe left to pass')).toBeInTheDocument();
    expect(button('Rewind')).toHaveAttribute('aria-disabled', 'true');
  });

  it('while the cards load, holds their place: a card-shaped placeholder, the count line and the swipe buttons (inert)', async () => {
    api.matching.getSuggestions.mockReturnValue(new Promise<SuggestionDto[]>(() => undefined));
    renderWithApp(api, { route: '/discover' });

    expect(await screen.findByText('Loading matches...')).toBeInTheDocument();
    expect(screen.getByText('Loading matches...').closest('.discover-card')).toHaveClass('discover-card--loading');
    expect(screen.getByRole('heading', { name: 'Discover', level: 1 }).parentElement?.querySelector('.page-header__subtitle')).toBeInTheDocument();
    for (const name of ['Pass', 'Rewind', 'Like']) expect(button(name)).toHaveAttribute('aria-disabled', 'true');
    await userEvent.setup().click(button('Like'));
    expect(api.matching.like).not.toHaveBeenCalled();
  });

  it('likes with the Like button, then shows the next card and the count left', async () => {
    const user = userEvent.setup();
    await open(suggestions(1, 2, 3, 4, 5));
    await user.click(button('Like'));
    expect(api.matching.like).toHaveBeenCalledWith('u1');
    expect(screen.getByText('LIKE')).toBeInTheDocument();
    await onTop('Member 2, 30');
    expect(screen.getByText('4 potential matches')).toBeInTheDocument();
    expect(button('Like')).toHaveFocus();
    expect(api.matching.pass).not.toHaveBeenCalled();
  });

  it('likes by dragging the card past 100 px and passes by dragging it left', async () => {
    await open(suggestions(1, 2, 3, 4, 5));
    const pointer = { pointerId: 1, isPrimary: true, pointerType: 'touch' };
    const swipe = (dx: number) => {
      const card = topCard();
      fireEvent.pointerDown(card, { ...pointer, clientX: 200 });
      fireEvent.pointerMove(card, { ...pointer, clientX: 200 + dx });
      fireEvent.pointerUp(card, { ...pointer, clientX: 200 + dx });
    };
    swipe(150);
    expect(api.matching.like).toHaveBeenCalledWith('u1');
    await onTop('Member 2, 30');
    swipe(-150);
    expect(api.matching.pass).toHaveBeenCalledWith('u2');
    await onTop('Member 3, 30');
  });

  it('likes with ArrowRight and passes with ArrowLeft, but not while typing in a text field', async () => {
    const user = userEvent.setup();
    await open(suggestions(1, 2, 3, 4, 5));
    await user.keyboard('{ArrowRight}');
    expect(api.matching.like).toHaveBeenCalledWith('u1');
    await onTop('Member 2, 30');
    await user.keyboard('{ArrowLeft}');
    expect(api.matching.pass).toHaveBeenCalledWith('u2');
    await onTop('Member 3, 30');

    const field = document.createElement('input');
    document.body.append(field);
    field.focus();
    await user.keyboard('{ArrowLeft}{ArrowRight}');
    field.remove();
    expect(api.matching.like).toHaveBeenCalledTimes(1);
    expect(api.matching.pass).toHaveBeenCalledTimes(1);
    expect(topCard()).toHaveAccessibleName('Member 3, 30');
  });

  it('decides once while the card leaves: a double click or a held arrow key is one like', async () => {
    await open(suggestions(1, 2, 3, 4, 5));
    fireEvent.click(button('Like'));
    fireEvent.click(button('Like'));
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    await onTop('Member 2, 30');
    fireEvent.keyDown(window, { key: 'ArrowLeft', repeat: true });
    expect(api.matching.like.mock.calls).toEqual([['u1']]);
    expect(api.matching.pass).not.toHaveBeenCalled();
    expect(screen.getByText('4 potential matches')).toBeInTheDocument();
  });

  it('works the buttons with Enter and Space', async () => {
    const user = userEvent.setup();
    await open(suggestions(1, 2, 3, 4, 5));
    button('Pass').focus();
    await user.keyboard('{Enter}');
    expect(api.matching.pass).toHaveBeenCalledWith('u1');
    await onTop('Member 2, 30');
    button('Like').focus();
    await user.keyboard(' ');
    expect(api.matching.like).toHaveBeenCalledWith('u2');
    await onTop('Member 3, 30');
  });

  it('rewinds the last pass: the card returns on top, and Rewind is off again', async () => {
    const user = userEvent.setup();
    await open(suggestions(1, 2, 3, 4, 5));
    await user.click(button('Pass'));
    await onTop('Member 2, 30');
    await waitFor(() => expect(button('Rewind')).toHaveAttribute('aria-disabled', 'false'));

    api.matching.rewind.mockResolvedValue({ suggestion: aSuggestion(1) });
    await user.click(button('Rewind'));
    await onTop('Member 1, 30');
    expect(api.matching.rewind).toHaveBeenCalledTimes(1);
    expect(screen.getByText('5 potential matches')).toBeInTheDocument();
    expect(button('Rewind')).toHaveAttribute('aria-disabled', 'true');
    expect(button('Rewind')).toHaveFocus();
    await user.click(button('Rewind'));
    expect(api.matching.rewind).toHaveBeenCalledTimes(1);
  });

  it("shows the server's 'Nothing to rewind' and turns Rewind off", async () => {
    const user = userEvent.setup();
    await open(suggestions(1, 2, 3, 4, 5));
    await user.click(button('Pass'));
    await onTop('Member 2, 30');
    api.matching.rewind.mockRejectedValue(
      new ApiError(MatchingMessages.nothingToRewind, 404, MatchingMessages.nothingToRewind),
    );
    await waitFor(() => expect(button('Rewind')).toHaveAttribute('aria-disabled', 'false'));
    await user.click(button('Rewind'));
    expect(await screen.findByText('Nothing to rewind')).toBeInTheDocument();
    expect(button('Rewind')).toHaveAttribute('aria-disabled', 'true');
    expect(topCard()).toHaveAccessibleName('Member 2, 30');
  });

  it('reloads when 3 or fewer remain, appending only members not queued or already decided', async () => {
    const user = userEvent.setup();
    await open(suggestions(1, 2, 3, 4, 5));
    api.matching.getSuggestions.mockResolvedValueOnce(suggestions(1, 3, 4, 5, 6));
    await user.click(button('Like'));
    await onTop('Member 2, 30');
    expect(api.matching.getSuggestions).toHaveBeenCalledTimes(1);

    await user.click(button('Pass'));
    await onTop('Member 3, 30');
    await waitFor(() => expect(api.matching.getSuggestions).toHaveBeenCalledTimes(2));
    expect(await screen.findByText('4 potential matches')).toBeInTheDocument();

    for (const next of ['Member 4, 30', 'Member 5, 30', 'Member 6, 30']) {
      api.matching.getSuggestions.mockResolvedValueOnce([]);
      await user.click(button('Like'));
      await onTop(next);
    }
    expect(api.matching.like.mock.calls.map(([id]) => id)).toEqual(['u1', 'u3', 'u4', 'u5']);
  });

  it("shows 'No more matches' with Refresh when the queue runs out, and Refresh loads again", async () => {
    const user = userEvent.setup();
    await open(suggestions(1));
    api.matching.getSuggestions.mockResolvedValueOnce([]);
    await user.click(button('Like'));
    expect(await screen.findByRole('heading', { name: 'No more matches' }, EXIT_WAIT)).toBeInTheDocument();
    expect(screen.getByText('0 potential matches')).toBeInTheDocument();
    expect(button('Like')).toHaveAttribute('aria-disabled', 'true');
    await user.click(button('Like'));
    expect(api.matching.like).toHaveBeenCalledTimes(1);

    api.matching.getSuggestions.mockResolvedValueOnce(suggestions(7));
    await user.click(button('Refresh'));
    await onTop('Member 7, 30');
    expect(screen.getByText('1 potential matches')).toBeInTheDocument();
  });

  it("shows the client's error when suggestions cannot be loaded, and Try Again", async () => {
    const user = userEvent.setup();
    api.matching.getSuggestions.mockRejectedValueOnce(new ApiError(MatchingMessages.suggestionsFailed, 500));
    renderWithApp(api, { route: '/discover' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to get match suggestions');
    api.matching.getSuggestions.mockResolvedValueOnce(suggestions(1));
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    await onTop('Member 1, 30');
  });

  it('shows a failed like beside the next card', async () => {
    const user = userEvent.setup();
    await open(suggestions(1, 2, 3, 4, 5));
    api.matching.like.mockRejectedValueOnce(new ApiError(MatchingMessages.likeFailed, 500));
    await user.click(button('Like'));
    expect(await screen.findByText('Failed to like user')).toBeInTheDocument();
    await onTop('Member 2, 30');
  });

  it("opens 'It's a Match!' on a matched like; Send Message goes to /chat/{id}", async () => {
    const user = userEvent.setup();
    await open([aSuggestion(1, { name: 'Bea' }), aSuggestion(2)]);
    api.matching.like.mockResolvedValueOnce({ matched: true, matchId: 'm1' });
    await user.click(button('Like'));
    const dialog = await screen.findByRole('dialog', { name: "It's a Match!" });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription('You and Bea like each other.');
    expect(within(dialog).getByRole('button', { name: 'Send Message' })).toHaveFocus();

    // The arrow keys do not swipe behind the popup; Tab stays inside it.
    await user.keyboard('{ArrowRight}');
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Keep Swiping' })).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Send Message' })).toHaveFocus();
    expect(api.matching.like).toHaveBeenCalledTimes(1);

    await user.click(within(dialog).getByRole('button', { name: 'Send Message' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/chat/u1');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes the popup with Keep Swiping or Escape and goes on swiping', async () => {
    const user = userEvent.setup();
    await open(suggestions(1, 2, 3, 4, 5));
    api.matching.like.mockResolvedValue({ matched: true, matchId: 'm' });
    await user.click(button('Like'));
    await user.click(await screen.findByRole('button', { name: 'Keep Swiping' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await onTop('Member 2, 30');

    await user.click(button('Like'));
    expect(await screen.findByRole('dialog', { name: "It's a Match!" })).toHaveAccessibleDescription(
      'You and Member 2 like each other.',
    );
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/discover');
    await onTop('Member 3, 30');
  });
});
