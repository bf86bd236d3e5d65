import type { IconName } from '@mate/ui';

export interface NavItem {
  label: string;
  to: string;
  icon: IconName;
  adminOnly?: boolean;
  /** A live count shown beside the label: 'unread' is the chat's unread messages. */
  badge?: 'unread';
}

export interface NavGroup {
  heading: string;
  items: NavItem[];
}

/** Spec 000 §2 navigation items, in the spec's order, grouped for reading; Logout is a button. */
export const NAV_GROUPS: NavGroup[] = [
  {
    heading: 'Connect',
    items: [
      { label: 'Dashboard', to: '/dashboard', icon: 'home' },
      { label: 'Discover', to: '/discover', icon: 'compass' },
      { label: 'Messages', to: '/matches', icon: 'messages', badge: 'unread' },
    ],
  },
  {
    heading: 'Matching',
    items: [
      { label: 'Match Preferences', to: '/preferences', icon: 'sliders' },
      { label: 'Filters', to: '/settings/filters', icon: 'filter' },
    ],
  },
  {
    heading: 'You',
    items: [
      { label: 'Profile', to: '/profile', icon: 'user' },
      { label: 'Calls', to: '/calls', icon: 'video' },
      { label: 'Safety', to: '/safety', icon: 'shield' },
    ],
  },
  {
    heading: 'Settings',
    items: [
      { label: 'Notifications', to: '/settings/notifications', icon: 'bell' },
      { label: 'Sessions', to: '/settings/sessions', icon: 'devices' },
      { label: 'Privacy', to: '/settings/privacy', icon: 'lock' },
      { label: 'Account', to: '/settings/account', icon: 'mail' },
    ],
  },
  {
    heading: 'Administration',
    items: [{ label: 'Admin', to: '/admin', icon: 'crown', adminOnly: true }],
  },
];

/** The large breakpoint: below it the navigation is a toggleable menu. */
export const LARGE_BREAKPOINT_QUERY = '(min-width: 1024px)';
