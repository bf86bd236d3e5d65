import './FullScreenLoading.css';
import { Logo } from './icons';
import { Spinner } from './Spinner';

/** The full-screen 'Loading...' view of spec 000 §2 and §4, in both apps. */
export function FullScreenLoading({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="app-fullscreen" aria-busy="true">
      <Logo size={48} />
      <Spinner size="lg" label={label} showLabel />
    </div>
  );
}
