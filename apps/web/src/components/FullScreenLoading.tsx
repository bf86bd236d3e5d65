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
