// The Glass UI stylesheet comes with the components, so every app that uses them looks the same.
import './styles/global.css';

export * from './lib/cx';
export * from './lib/Alert';
export * from './lib/Avatar';
export * from './lib/Badge';
export * from './lib/Button';
export * from './lib/Chip';
export * from './lib/Card';
export * from './lib/Dialog';
export * from './lib/EmptyState';
export * from './lib/FullScreenLoading';
export * from './lib/icons';
export * from './lib/Input';
export * from './lib/lazy-screen';
export * from './lib/PageHeader';
export * from './lib/page-setting';
export * from './lib/ProgressBar';
export * from './lib/RouteErrorBoundary';
export * from './lib/Select';
export * from './lib/session/auth-storage';
export * from './lib/session/session-signals';
export * from './lib/Slider';
export * from './lib/Spinner';
export * from './lib/Textarea';
export * from './lib/useBodyScrollLock';
