import { useState } from 'react';
import { cx } from './cx';

export interface AvatarProps {
  name?: string | null;
  src?: string | null;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  className?: string;
}

/** A round picture, or the first letter of the name when there is none (or it fails to load). */
export function Avatar({ name, src, size = 'md', className }: AvatarProps) {
  const [failed, setFailed] = useState(false);
  const label = name?.trim() || 'User';
  const initial = label.charAt(0).toUpperCase();
  return (
    <span className={cx('mate-avatar', `mate-avatar--${size}`, className)}>
      {src && !failed ? (
        <img src={src} alt={label} onError={() => setFailed(true)} />
      ) : (
        <span role="img" aria-label={label}>
          <span aria-hidden="true">{initial}</span>
        </span>
      )}
    </span>
  );
}
