import { Logo, Spinner } from '@mate/ui';

/** The full-screen 'Loading...' view of spec 000 §2 and §4. */
export function FullScreenLoading() {
  return (
    <div className="app-fullscreen" aria-busy="true">
      <Logo size={48} />
      <Spinner size="lg" label="Loading..." showLabel />
    </div>
  );
}

/**
 * The same 'Loading...' inside the signed-in frame, while a screen's code downloads: the
 * navigation stays where it is and only the screen's place waits (issue 26).
 */
export function ScreenLoading() {
  return (
    <div className="app-screen-loading" aria-busy="true">
      <Spinner size="lg" label="Loading..." showLabel />
    </div>
  );
}
