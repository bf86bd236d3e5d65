import { Logo, Spinner } from '@mate/ui';

export function FullScreenLoading({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="app-fullscreen" aria-busy="true">
      <Logo size={48} />
      <Spinner size="lg" label={label} showLabel />
    </div>
  );
}
