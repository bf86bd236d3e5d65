import { Avatar, Icon } from '@mate/ui';
import { useRef, useState, type KeyboardEvent } from 'react';
import { usePhotoSrcSet, usePhotoUrl } from '../../profile/usePhotos';

/**
 * The longest side a (4:5 portrait) photo is drawn at in the gallery: the dialog's width (the whole
 * screen up to 600 px, else 560 px; member-profile.css `.member-profile`), 1.25 times as tall.
 */
export const GALLERY_PHOTO_SIZES = '(max-width: 600px) 125vw, 700px';

/**
 * Every photo of a member in one strip: swiped on a touch screen (scroll snapping), turned with the
 * Previous and Next buttons or the arrow keys. Every photo stays in the page with its own alt text,
 * so a screen reader can go through them all without the buttons.
 */
export function MemberGallery({ name, urls }: { name: string; urls: string[] }) {
  const photoUrl = usePhotoUrl();
  const photoSrcSet = usePhotoSrcSet();
  const stripRef = useRef<HTMLUListElement>(null);
  const [index, setIndex] = useState(0);
  const count = urls.length;

  if (count === 0) {
    return (
      <div className="member-gallery member-gallery--empty">
        <Avatar name={name} size="xl" />
      </div>
    );
  }

  const show = (next: number) => {
    const target = Math.min(count - 1, Math.max(0, next));
    setIndex(target);
    const strip = stripRef.current;
    // jsdom has no scrolling; a browser slides the strip to the photo.
    if (strip && typeof strip.scrollTo === 'function') strip.scrollTo({ left: target * strip.clientWidth });
  };

  const onScroll = () => {
    const strip = stripRef.current;
    if (!strip || strip.clientWidth === 0) return;
    setIndex(Math.min(count - 1, Math.max(0, Math.round(strip.scrollLeft / strip.clientWidth))));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    show(index + (event.key === 'ArrowRight' ? 1 : -1));
  };

  return (
    <section className="member-gallery" aria-label={`Photos of ${name}`} onKeyDown={onKeyDown}>
      <ul
        ref={stripRef}
        className="member-gallery__strip"
        // Focusable so the arrow keys and a keyboard scroll reach it without the buttons.
        tabIndex={0}
        aria-label={`${count} ${count === 1 ? 'photo' : 'photos'}`}
        onScroll={onScroll}
      >
        {urls.map((url, i) => (
          <li key={`${url}-${i}`} className="member-gallery__slide">
            <img
              className="member-gallery__photo"
              src={photoUrl(url, 'large')}
              srcSet={photoSrcSet(url)}
              sizes={GALLERY_PHOTO_SIZES}
              // Only the first is in view when the dialog opens; the rest load as the strip turns.
              loading={i === 0 ? 'eager' : 'lazy'}
              decoding="async"
              alt={count > 1 ? `${name}, photo ${i + 1} of ${count}` : name}
              draggable={false}
            />
          </li>
        ))}
      </ul>
      {count > 1 && (
        <div className="member-gallery__controls">
          <button
            type="button"
            className="member-gallery__arrow"
            aria-label="Previous photo"
            aria-disabled={index === 0 || undefined}
            onClick={() => show(index - 1)}
          >
            <Icon name="arrow-left" size={20} />
          </button>
          <p className="member-gallery__count" aria-live="polite">
            Photo {index + 1} of {count}
          </p>
          <button
            type="button"
            className="member-gallery__arrow"
            aria-label="Next photo"
            aria-disabled={index === count - 1 || undefined}
            onClick={() => show(index + 1)}
          >
            <Icon name="arrow-right" size={20} />
          </button>
        </div>
      )}
    </section>
  );
}
