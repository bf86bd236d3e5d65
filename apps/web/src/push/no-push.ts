import type { PushBrowser } from './push-browser';

const unsupported = (): never => {
  throw new Error('Push is not available here');
};

/** An app rendered without push (tests of other screens): notifications read as unsupported. */
export const noPush: PushBrowser = {
  supported: false,
  permission: () => 'default',
  requestPermission: () => Promise.resolve('default'),
  register: () => Promise.resolve(),
  getSubscription: () => Promise.resolve(null),
  subscribe: unsupported,
  onNavigate: () => () => undefined,
};
