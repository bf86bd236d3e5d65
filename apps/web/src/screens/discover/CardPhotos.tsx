import type { PhotoDto } from '@mate/contracts';
import { Avatar, cx } from '@mate/ui';
import { useState } from 'react';
import { usePhotoSrcSet, usePhotoUrl } from '../../profile/usePhotos';

interface CardPhotosProps {
  name: string;
  photos: PhotoDto[];
  /** Used when the suggestion carries no photo list. */
  profilePicture: string | null;
}

/**
 * The longest side a (4:5 portrait) photo is drawn at on the card: the card is the narrow screen's
 * width (520 px, less the page's 16 px padding on each side below 552 px; app.css `.screen--narrow`,
 * `.app-main`) and the photo covers it, 1.25 times as tall as wide. So a phone at 1x gets the
 * medium file; at 2-3x, or on a wider screen, the card needs the large one.
 */
export const CARD_PHOTO_SIZES = '(max-width: 552px) calc(125vw - 40px), 650px';

/**
 * The card's photo area (spec 000 §4): tapping its right half shows the next photo, its left half
 * the previous one. The halves are real buttons, so the photos can be turned by keyboard too.
 */
export function CardPhotos({ name, photos, profilePicture }: CardPhotosProps) {
  const photoUrl = usePhotoUrl();
  const photoSrcSet = usePhotoSrcSet();
  const urls = photos.length > 0 ? photos.map((photo) => photo.url) : profilePicture ? [profilePicture] : [];
  const [index, setIndex] = useState(0);
  const shown = Math.min(index, Math.max(0, urls.length - 1));

  if (urls.length === 0) {
    return (
      <div className="discover-card__photos discover-card__photos--empty">
        <Avatar name={name} size="xl" />
      </div>
    );
  }

  const atFirst = shown === 0;
  const atLast = shown === urls.length - 1;
  return (
    <div className="discover-card__photos">
      <img
        className="discover-card__photo"
        src={photoUrl(urls[shown], 'large')}
        srcSet={photoSrcSet(urls[shown])}
        sizes={CARD_PHOTO_SIZES}
        // The photo is the screen's largest content: fetched first, never deferred.
        fetchPriority="high"
        alt={urls.length > 1 ? `${name}, photo ${shown + 1} of ${urls.length}` : name}
        draggable={false}
      />
      {urls.length > 1 && (
        <>
          <button
            type="button"
            className="discover-card__photo-half discover-card__photo-half--previous"
            aria-label="Previous photo"
            aria-disabled={atFirst || undefined}
            onClick={() => setIndex(Math.max(0, shown - 1))}
          />
          <button
            type="button"
            className="discover-card__photo-half discover-card__photo-half--next"
            aria-label="Next photo"
            aria-disabled={atLast || undefined}
            onClick={() => setIndex(Math.min(urls.length - 1, shown + 1))}
          />
          <div className="discover-card__dots" aria-hidden="true">
            {urls.map((url, i) => (
              <span key={`${url}-${i}`} className={cx('discover-card__dot', i === shown && 'is-current')} />
            ))}
          </div>
        </>
      )}
    </div>
  );
}
