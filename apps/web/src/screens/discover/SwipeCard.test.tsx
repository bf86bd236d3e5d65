import type { MateApi } from '@mate/api-client';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiProvider } from '../../api/ApiContext';
import { aPhoto, aSuggestion, createFakeApi } from '../../testing/fake-api';
import { SwipeCard } from './SwipeCard';
import type { SwipeDirection } from './swipe';

const pointer = { pointerId: 1, isPrimary: true, pointerType: 'mouse', button: 0 };

/** Presses at x = 200, moves by `dx` (through the tap slop first, as a hand does) and optionally releases. */
function drag(element: HTMLElement, dx: number, { release = true } = {}) {
  fireEvent.pointerDown(element, { ...pointer, clientX: 200 });
  fireEvent.pointerMove(element, { ...pointer, clientX: 200 + Math.sign(dx) * 10 });
  fireEvent.pointerMove(element, { ...pointer, clientX: 200 + dx });
  if (release) fireEvent.pointerUp(element, { ...pointer, clientX: 200 + dx });
}

describe('SwipeCard', () => {
  let onDecide: ReturnType<typeof vi.fn<(direction: SwipeDirection) => void>>;
  beforeEach(() => {
    onDecide = vi.fn<(direction: SwipeDirection) => void>();
  });

  function renderCard(suggestion = aSuggestion(1), exiting: SwipeDirection | null = null) {
    const api = createFakeApi();
    const view = render(
      <ApiProvider client={api as unknown as MateApi}>
        <SwipeCard suggestion={suggestion} exiting={exiting} onDecide={onDecide} />
      </ApiProvider>,
    );
    const rerender = (nextExiting: SwipeDirection | null) =>
      view.rerender(
        <ApiProvider client={api as unknown as MateApi}>
          <SwipeCard suggestion={suggestion} exiting={nextExiting} onDecide={onDecide} />
        </ApiProvider>,
      );
    return { card: screen.getByRole('article'), rerender };
  }

  it("names a member without a name 'Unknown User'", () => {
    const { card } = renderCard(aSuggestion(1, { name: '  ', age: 41 }));
    expect(card).toHaveAccessibleName('Unknown User, 41');
  });

  it('shows name, age, location with the coarse distance, occupation, bio, 5 interests then +N more, and N% Match', () => {
    const { card } = renderCard(
      aSuggestion(1, {
        name: 'Bea',
        age: 29,
        location: 'Porto, Portugal',
        occupation: 'Nurse',
        bio: 'Climber, cook, occasional poet.',
        interests: ['Hiking', 'Cooking', 'Art', 'Music', 'Travel', 'Yoga', 'Dancing'],
        score: 87,
        distance: 'about 30 km',
      }),
    );
    expect(card).toHaveAccessibleName('Bea, 29');
    expect(screen.getByRole('heading', { name: 'Bea, 29' })).toBeInTheDocument();
    expect(screen.getByText('Porto, Portugal · about 30 km')).toBeInTheDocument();
    expect(screen.getByText('Nurse')).toBeInTheDocument();
    expect(screen.getByText('Climber, cook, occasional poet.')).toHaveClass('discover-card__bio');
    const interests = screen.getByRole('list', { name: 'Interests' });
    expect(Array.from(interests.querySelectorAll('li')).map((li) => li.textContent)).toEqual([
      'Hiking',
      'Cooking',
      'Art',
      'Music',
      'Travel',
      '+2 more',
    ]);
    expect(screen.getByText('87% Match')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Bea' })).toHaveAttribute(
      'src',
      'http://api.test/api/photos/files/ph101/large.webp',
    );
  });

  it("offers the card's photo in every size for the browser to choose by the card's box, fetched first", () => {
    renderCard(aSuggestion(1, { name: 'Bea', photos: [aPhoto(1)] }));
    const photo = screen.getByRole('img', { name: 'Bea' });
    expect(photo).toHaveAttribute(
      'srcset',
      'http://api.test/api/photos/files/ph1/thumb.webp 200w, http://api.test/api/photos/files/ph1/medium.webp 600w, http://api.test/api/photos/files/ph1/large.webp 1200w',
    );
    // The photo covers the narrow screen's card (16 px padding each side on a phone, 520 px
    // wide elsewhere), a 4:5 photo drawn 1.25 times as tall: 447 px on a 390 px phone.
    expect(photo).toHaveAttribute('sizes', '(max-width: 552px) calc(125vw - 40px), 650px');
    // The largest content of Discover: never deferred, asked for before the rest.
    expect(photo).not.toHaveAttribute('loading', 'lazy');
    expect(photo).toHaveAttribute('fetchpriority', 'high');
  });

  it('shows exactly 5 interests without +N more, and no distance when there is none', () => {
    renderCard(aSuggestion(1, { location: 'Porto, Portugal', interests: ['A', 'B', 'C', 'D', 'E'] }));
    expect(screen.getByText('Porto, Portugal')).toBeInTheDocument();
    expect(screen.queryByText(/more$/)).not.toBeInTheDocument();
    expect(screen.queryByText(/ · /)).not.toBeInTheDocument();
  });

  it('tilts by offset/20 degrees and fades over 500 px while dragged', () => {
    const { card } = renderCard();
    drag(card, 100, { release: false });
    expect(card.style.transform).toBe('translateX(100px) rotate(5deg)');
    expect(Number(card.style.opacity)).toBeCloseTo(0.8);
    fireEvent.pointerMove(card, { ...pointer, clientX: 200 - 250 });
    expect(card.style.transform).toBe('translateX(-250px) rotate(-12.5deg)');
    expect(Number(card.style.opacity)).toBeCloseTo(0.5);
  });

  it('shows LIKE beyond 50 px right and NOPE beyond 50 px left, nothing at 50 px', () => {
    const { card } = renderCard();
    drag(card, 50, { release: false });
    expect(screen.queryByText('LIKE')).not.toBeInTheDocument();
    fireEvent.pointerMove(card, { ...pointer, clientX: 200 + 51 });
    expect(screen.getByText('LIKE')).toBeInTheDocument();
    fireEvent.pointerMove(card, { ...pointer, clientX: 200 - 50 });
    expect(screen.queryByText('NOPE')).not.toBeInTheDocument();
    fireEvent.pointerMove(card, { ...pointer, clientX: 200 - 51 });
    expect(screen.getByText('NOPE')).toBeInTheDocument();
    expect(screen.queryByText('LIKE')).not.toBeInTheDocument();
  });

  it('snaps back when released at 99 px either way', () => {
    const { card } = renderCard();
    drag(card, 99);
    expect(onDecide).not.toHaveBeenCalled();
    expect(card.style.transform).toBe('translateX(0px) rotate(0deg)');
    expect(card.style.opacity).toBe('1');
    drag(card, -99);
    expect(onDecide).not.toHaveBeenCalled();
    expect(card.style.transform).toBe('translateX(0px) rotate(0deg)');
  });

  it('likes when released at 101 px right and passes at 101 px left', () => {
    const { card } = renderCard();
    drag(card, 101);
    expect(onDecide).toHaveBeenLastCalledWith('right');
    drag(card, -101);
    expect(onDecide).toHaveBeenLastCalledWith('left');
    expect(onDecide).toHaveBeenCalledTimes(2);
  });

  it('ignores a second pointer and a right-button press', () => {
    const { card } = renderCard();
    fireEvent.pointerDown(card, { ...pointer, button: 2, clientX: 200 });
    fireEvent.pointerMove(card, { ...pointer, clientX: 400 });
    fireEvent.pointerUp(card, { ...pointer, clientX: 400 });
    fireEvent.pointerDown(card, { ...pointer, pointerId: 2, isPrimary: false, clientX: 200 });
    fireEvent.pointerUp(card, { ...pointer, pointerId: 2, isPrimary: false, clientX: 400 });
    expect(onDecide).not.toHaveBeenCalled();
    expect(card.style.transform).toBe('translateX(0px) rotate(0deg)');
  });

  it('flies out the decided way once exiting, and takes no new drag', () => {
    const { card, rerender } = renderCard();
    rerender('left');
    expect(card.style.transform).toBe('translateX(-1500px) rotate(-75deg)');
    expect(card.style.opacity).toBe('0');
    expect(screen.getByText('NOPE')).toBeInTheDocument();
    drag(card, 200);
    expect(onDecide).not.toHaveBeenCalled();
  });

  it('turns photos with taps on the right and left halves, with position dots', async () => {
    const user = userEvent.setup();
    renderCard(aSuggestion(1, { name: 'Bea', photos: [aPhoto(1), aPhoto(2), aPhoto(3)] }));
    expect(screen.getByRole('img', { name: 'Bea, photo 1 of 3' })).toHaveAttribute(
      'src',
      'http://api.test/api/photos/files/ph1/large.webp',
    );
    expect(document.querySelectorAll('.discover-card__dot')).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Previous photo' })).toHaveAttribute('aria-disabled', 'true');

    await user.click(screen.getByRole('button', { name: 'Next photo' }));
    expect(screen.getByRole('img', { name: 'Bea, photo 2 of 3' })).toBeInTheDocument();
    expect(document.querySelector('.discover-card__dot.is-current')).toBe(
      document.querySelectorAll('.discover-card__dot')[1],
    );
    await user.click(screen.getByRole('button', { name: 'Next photo' }));
    await user.click(screen.getByRole('button', { name: 'Next photo' }));
    expect(screen.getByRole('img', { name: 'Bea, photo 3 of 3' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next photo' })).toHaveAttribute('aria-disabled', 'true');

    await user.click(screen.getByRole('button', { name: 'Previous photo' }));
    expect(screen.getByRole('img', { name: 'Bea, photo 2 of 3' })).toBeInTheDocument();
    expect(onDecide).not.toHaveBeenCalled();
  });

  it('does not turn the photo on the click that ends a drag', () => {
    renderCard(aSuggestion(1, { name: 'Bea', photos: [aPhoto(1), aPhoto(2)] }));
    const next = screen.getByRole('button', { name: 'Next photo' });
    drag(next, 40);
    fireEvent.click(next);
    expect(screen.getByRole('img', { name: 'Bea, photo 1 of 2' })).toBeInTheDocument();
    fireEvent.click(next);
    expect(screen.getByRole('img', { name: 'Bea, photo 2 of 2' })).toBeInTheDocument();
  });

  it('shows the first letter of the name when the member has no photo', () => {
    renderCard(aSuggestion(1, { name: 'Bea', photos: [], profilePicture: null }));
    expect(screen.getByRole('img', { name: 'Bea' })).toHaveTextContent('B');
    expect(screen.queryByRole('button', { name: 'Next photo' })).not.toBeInTheDocument();
  });
});
