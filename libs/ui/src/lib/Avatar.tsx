import { useState } from 'react';
import { cx } from './cx';

export type AvatarSize = 'sm' | 'md' | 'lg' | 'xl';

export interface AvatarProps {
  name?: string | null;
  src?: string | null;
  /**
   * Other files of the same picture with `w` descriptors by their longest side (the photo
   * client's `srcSet`); the browser picks one by the box and the screen's density.
   */
  srcSet?: string | null;
  size?: AvatarSize;
  /** `lazy` for avatars below the fold (rows further down a list). */
  loading?: 'lazy' | 'eager';
  className?: string;
}

/**
 * The longest side a picture is drawn at in each box (global.css `.mate-avatar--*` sizes): a
 * portrait photo (4:5) covering the round box is 1.25 times as tall as the box is wide.
 */
const DRAWN_PX: Record<AvatarSize, number> = { sm: 40, md: 50, lg: 70, xl: 100 };

/** A round picture, or the first letter of the name when there is none (or it fails to load). */
export function Avatar({ name, src, srcSet, size = 'md', loading, className }: AvatarProps) {
  const [failed, setFailed] = useState(false);
  const label = name?.trim() || 'User';
  const initial = label.charAt(0).toUpperCase();
  return (
    <span className={cx('mate-avatar', `mate-avatar--${size}`, className)}>
      {src && !failed ? (
        <img
          src={src}
          srcSet={srcSet ?? undefined}
          sizes={srcSet ? `${DRAWN_PX[size]}px` : undefined}
          alt={label}
          loading={loading}
          decoding="async"
          onError={() => setFailed(true)}
        />
      ) : (
        <span role="img" aria-label={label}>
          <span aria-hidden="true">{initial}</span>
        </span>
      )}
    </span>
  );
}
