import type { ReactNode } from 'react';

/**
 * The call controls' pictures, drawn like @mate/ui's stroke icons (24 px grid, 1.8 stroke). They
 * live here because only the call screen uses them; each control names itself with aria-label.
 */
export type CallIconName = 'mic' | 'mic-off' | 'video' | 'video-off' | 'captions' | 'hang-up';

const paths: Record<CallIconName, ReactNode> = {
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
  video: (
    <>
      <rect x="2.5" y="6" width="13.5" height="12" rx="2.5" />
      <path d="m16 10.5 5.5-3.5v10L16 13.5z" />
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
};

/** Decorative: the button around it carries the name. */
export function CallIcon({ name, size = 24 }: { name: CallIconName; size?: number }) {
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
      aria-hidden="true"
      focusable="false"
    >
      {paths[name]}
    </svg>
  );
}
