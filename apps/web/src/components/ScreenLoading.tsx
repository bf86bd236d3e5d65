import { Spinner } from '@mate/ui';

/**
 * The full-screen 'Loading...' (FullScreenLoading, @mate/ui) inside the signed-in frame, while a
 * screen's code downloads: the navigation stays where it is and only the screen's place waits
 * (issue 26).
 */
export function ScreenLoading() {
  return (
    <div className="app-screen-loading" aria-busy="true">
      <Spinner size="lg" label="Loading..." showLabel />
    </div>
  );
}
