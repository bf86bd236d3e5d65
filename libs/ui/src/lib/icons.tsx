import type { ReactNode, SVGProps } from 'react';

/** Stroke icons drawn on a 24 px grid; decorative unless given a `title`. */
export type IconName =
  | 'home'
  | 'compass'
  | 'messages'
  | 'heart'
  | 'sliders'
  | 'filter'
  | 'user'
  | 'video'
  | 'video-off'
  | 'mic'
  | 'mic-off'
  | 'captions'
  | 'hang-up'
  | 'shield'
  | 'bell'
  | 'devices'
  | 'lock'
  | 'mail'
  | 'crown'
  | 'logout'
  | 'login'
  | 'menu'
  | 'close'
  | 'smartphone'
  | 'tablet'
  | 'monitor'
  | 'check'
  | 'clock'
  | 'sparkles'
  | 'arrow-left'
  | 'arrow-right'
  | 'alert'
  | 'globe'
  | 'key'
  | 'chart'
  | 'camera'
  | 'refresh'
  | 'grip'
  | 'edit'
  | 'trash'
  | 'star'
  | 'upload'
  | 'plus'
  | 'map-pin'
  | 'flag'
  | 'ban';

const paths: Record<IconName, ReactNode> = {
  home: (
    <>
      <path d="M3 10.5 12 3l9 7.5" />
      <path d="M5 9.5V21h14V9.5" />
      <path d="M9.5 21v-6h5v6" />
    </>
  ),
  compass: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="m15.5 8.5-2 5-5 2 2-5z" />
    </>
  ),
  messages: <path d="M21 11.5a8.5 8.5 0 0 1-12.4 7.6L3.5 20.5l1.4-4.6A8.5 8.5 0 1 1 21 11.5z" />,
  heart: (
    <path d="M12 20.5s-7.5-4.6-9.2-9.3C1.6 7.8 3.9 4.5 7.3 4.5c2 0 3.6 1.1 4.7 2.7 1.1-1.6 2.7-2.7 4.7-2.7 3.4 0 5.7 3.3 4.5 6.7-1.7 4.7-9.2 9.3-9.2 9.3z" />
  ),
  sliders: (
    <>
      <path d="M4 6h9M17 6h3M4 12h3M11 12h9M4 18h11M19 18h1" />
      <circle cx="15" cy="6" r="2" />
      <circle cx="9" cy="12" r="2" />
      <circle cx="17" cy="18" r="2" />
    </>
  ),
  filter: <path d="M3.5 5h17l-6.5 8v5.5l-4 2V13z" />,
  user: (
    <>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c0-4.1 3.6-7 8-7s8 2.9 8 7" />
    </>
  ),
  video: (
    <>
      <rect x="2.5" y="6" width="13.5" height="12" rx="2.5" />
      <path d="m16 10.5 5.5-3.5v10L16 13.5z" />
    </>
  ),
  shield: (
    <>
      <path d="M12 3 4.5 6v5.5c0 4.6 3.2 8.3 7.5 9.5 4.3-1.2 7.5-4.9 7.5-9.5V6z" />
      <path d="m9 12 2 2 4-4" />
    </>
  ),
  bell: (
    <>
      <path d="M6 16.5V11a6 6 0 1 1 12 0v5.5l1.5 1.5h-15z" />
      <path d="M10 20.5a2 2 0 0 0 4 0" />
    </>
  ),
  devices: (
    <>
      <rect x="2.5" y="4.5" width="13" height="9.5" rx="1.5" />
      <path d="M1.5 18h11" />
      <rect x="17" y="8.5" width="5" height="11" rx="1.2" />
    </>
  ),
  lock: (
    <>
      <rect x="4.5" y="10.5" width="15" height="10" rx="2" />
      <path d="M8 10.5v-3a4 4 0 0 1 8 0v3" />
    </>
  ),
  mail: (
    <>
      <rect x="3" y="5" width="18" height="14" rx="2.5" />
      <path d="m3.5 7 8.5 6 8.5-6" />
    </>
  ),
  crown: <path d="M3 8.5 7.5 12 12 5l4.5 7L21 8.5 19 19H5z" />,
  logout: (
    <>
      <path d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3" />
      <path d="m10 17-5-5 5-5" />
      <path d="M5 12h11" />
    </>
  ),
  login: (
    <>
      <path d="M9 4H6a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h3" />
      <path d="m14 17 5-5-5-5" />
      <path d="M19 12H8" />
    </>
  ),
  menu: <path d="M4 7h16M4 12h16M4 17h16" />,
  close: <path d="M6 6l12 12M18 6 6 18" />,
  smartphone: (
    <>
      <rect x="7" y="2.5" width="10" height="19" rx="2.2" />
      <path d="M11 18.5h2" />
    </>
  ),
  tablet: (
    <>
      <rect x="4.5" y="2.5" width="15" height="19" rx="2.2" />
      <path d="M11 18.5h2" />
    </>
  ),
  monitor: (
    <>
      <rect x="2.5" y="4" width="19" height="13" rx="2" />
      <path d="M8 21h8M12 17v4" />
    </>
  ),
  check: <path d="m5 12.5 4.5 4.5L19 7.5" />,
  clock: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3.2 2" />
    </>
  ),
  sparkles: (
    <>
      <path d="M11 3.5 12.8 8.2 17.5 10l-4.7 1.8L11 16.5l-1.8-4.7L4.5 10l4.7-1.8z" />
      <path d="M18.5 14.5l.8 2.2 2.2.8-2.2.8-.8 2.2-.8-2.2-2.2-.8 2.2-.8z" />
    </>
  ),
  'arrow-left': <path d="M19 12H5M11 6l-6 6 6 6" />,
  'arrow-right': <path d="M5 12h14M13 6l6 6-6 6" />,
  alert: (
    <>
      <path d="M10.3 4.2 2.6 18a2 2 0 0 0 1.7 3h15.4a2 2 0 0 0 1.7-3L13.7 4.2a2 2 0 0 0-3.4 0z" />
      <path d="M12 9.5v4.5M12 17.5h.01" />
    </>
  ),
  globe: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.6 3 2.6 15 0 18M12 3c-2.6 3-2.6 15 0 18" />
    </>
  ),
  key: (
    <>
      <circle cx="8" cy="15" r="4" />
      <path d="m11 12 8.5-8.5M16.5 6.5l3 3" />
    </>
  ),
  chart: <path d="M4 20V10M10 20V4M16 20v-7M22 20H2" />,
  camera: (
    <>
      <path d="M4 7.5h3l1.8-2.5h6.4L17 7.5h3a1.5 1.5 0 0 1 1.5 1.5v9A1.5 1.5 0 0 1 20 19.5H4A1.5 1.5 0 0 1 2.5 18V9A1.5 1.5 0 0 1 4 7.5z" />
      <circle cx="12" cy="13" r="3.5" />
    </>
  ),
  refresh: (
    <>
      <path d="M20 11a8 8 0 0 0-14.5-4.5L4 8" />
      <path d="M4 4v4h4" />
      <path d="M4 13a8 8 0 0 0 14.5 4.5L20 16" />
      <path d="M20 20v-4h-4" />
    </>
  ),
  grip: (
    <>
      <circle cx="9" cy="6" r="1.2" />
      <circle cx="15" cy="6" r="1.2" />
      <circle cx="9" cy="12" r="1.2" />
      <circle cx="15" cy="12" r="1.2" />
      <circle cx="9" cy="18" r="1.2" />
      <circle cx="15" cy="18" r="1.2" />
    </>
  ),
  edit: (
    <>
      <path d="M4 20h4L19 9a2.1 2.1 0 0 0-3-3L5 17z" />
      <path d="m14.5 7.5 3 3" />
    </>
  ),
  trash: (
    <>
      <path d="M4 7h16M10 11v6M14 11v6" />
      <path d="M6 7l1 12.5A1.5 1.5 0 0 0 8.5 21h7a1.5 1.5 0 0 0 1.5-1.5L18 7M9 7V4.5A1.5 1.5 0 0 1 10.5 3h3A1.5 1.5 0 0 1 15 4.5V7" />
    </>
  ),
  star: <path d="m12 3.5 2.6 5.4 5.9.8-4.3 4.1 1 5.8L12 16.8l-5.2 2.8 1-5.8-4.3-4.1 5.9-.8z" />,
  upload: (
    <>
      <path d="M12 16V4M7 9l5-5 5 5" />
      <path d="M4 16v2.5A1.5 1.5 0 0 0 5.5 20h13a1.5 1.5 0 0 0 1.5-1.5V16" />
    </>
  ),
  plus: <path d="M12 5v14M5 12h14" />,
  'map-pin': (
    <>
      <path d="M12 21s-6.5-5.6-6.5-11a6.5 6.5 0 0 1 13 0c0 5.4-6.5 11-6.5 11z" />
      <circle cx="12" cy="10" r="2.3" />
    </>
  ),
  flag: (
    <>
      <path d="M5 21V4" />
      <path d="M5 4.5c4-2 7 2 11 0s3 0 3 0v9s-1-2-3 0-7-2-11 0" />
    </>
  ),
  mic: (
    <>
      <rect x="9" y="3" width="6" height="11" rx="3" />
      <path d="M5.5 11a6.5 6.5 0 0 0 13 0" />
      <path d="M12 17.5V21" />
    </>
  ),
  'mic-off': (
    <>
      <path d="M15 9.5V6a3 3 0 0 0-5.8-1.1" />
      <path d="M9 9v2a3 3 0 0 0 4.7 2.5" />
      <path d="M18.5 11a6.4 6.4 0 0 1-.9 3.3M5.5 11a6.5 6.5 0 0 0 10.4 5.2" />
      <path d="M12 17.5V21" />
      <path d="m3.5 3.5 17 17" />
    </>
  ),
  'video-off': (
    <>
      <path d="M10 6h3.5A2.5 2.5 0 0 1 16 8.5v3.5l5.5-5v10" />
      <path d="M16 16.5A2.5 2.5 0 0 1 13.5 18H5a2.5 2.5 0 0 1-2.5-2.5v-7A2.5 2.5 0 0 1 5 6" />
      <path d="m3.5 3.5 17 17" />
    </>
  ),
  captions: (
    <>
      <rect x="2.5" y="5" width="19" height="14" rx="2.5" />
      <path d="M10.5 10.2a2.3 2.3 0 1 0 0 3.6M17.5 10.2a2.3 2.3 0 1 0 0 3.6" />
    </>
  ),
  'hang-up': (
    <path d="M3.2 14.6c-.6-.6-.6-1.6 0-2.2C5.6 10.1 8.7 9 12 9s6.4 1.1 8.8 3.4c.6.6.6 1.6 0 2.2l-1.5 1.5c-.5.5-1.3.6-1.9.2l-2-1.3c-.4-.3-.7-.8-.7-1.3v-1.6a12 12 0 0 0-5.4 0v1.6c0 .5-.3 1-.7 1.3l-2 1.3c-.6.4-1.4.3-1.9-.2z" />
  ),
  ban: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="m5.6 5.6 12.8 12.8" />
    </>
  ),
};

export interface IconProps extends Omit<SVGProps<SVGSVGElement>, 'name'> {
  name: IconName;
  size?: number;
  /** When set the icon is announced; otherwise it is hidden from assistive technology. */
  title?: string;
}

export function Icon({ name, size = 20, title, ...rest }: IconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
      aria-label={title}
      focusable="false"
      {...rest}
    >
      {paths[name]}
    </svg>
  );
}

/**
 * The heart's 24-unit box with a margin that makes it 56 % of the mark: the mark is the SVG's own
 * size, so nothing sets a `style` (the markup is also drawn at build time, under a CSP that refuses
 * style attributes: issue 26).
 */
const MARK_VIEW_BOX = '-9.4286 -9.4286 42.8571 42.8571';

/** The Mate mark: a heart on the accent colour. */
export function Logo({ size = 36, withWordmark = false }: { size?: number; withWordmark?: boolean }) {
  return (
    <span className="mate-logo">
      <span className="mate-logo__mark" aria-hidden="true">
        <svg viewBox={MARK_VIEW_BOX} width={size} height={size} fill="currentColor">
          <path d="M12 20.5s-7.5-4.6-9.2-9.3C1.6 7.8 3.9 4.5 7.3 4.5c2 0 3.6 1.1 4.7 2.7 1.1-1.6 2.7-2.7 4.7-2.7 3.4 0 5.7 3.3 4.5 6.7-1.7 4.7-9.2 9.3-9.2 9.3z" />
        </svg>
      </span>
      {withWordmark && <span className="mate-logo__word">Mate</span>}
    </span>
  );
}
