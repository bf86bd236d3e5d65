import './RouteErrorBoundary.css';
import { Button } from './Button';
import { Card } from './Card';
import { Icon } from './icons';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

export const ROUTE_ERROR_TEXT =
  "Something went wrong. We encountered an unexpected error. Don't worry, your data is safe.";

interface BoundaryProps {
  title: string;
  resetKey: string;
  children: ReactNode;
}

class ErrorBoundary extends Component<BoundaryProps, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`${this.props.title}:`, error, info.componentStack);
  }

  override componentDidUpdate(previous: BoundaryProps) {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return <RouteErrorFallback title={this.props.title} onRetry={() => this.setState({ error: null })} />;
  }
}

export function RouteErrorFallback({ title, onRetry }: { title: string; onRetry: () => void }) {
  return (
    <div className="route-error">
      <Card tone="strong" padding="lg" className="route-error__card">
        <div className="route-error__icon" aria-hidden="true">
          <Icon name="alert" size={30} />
        </div>
        <h1 className="route-error__title">{title}</h1>
        <p className="route-error__text">{ROUTE_ERROR_TEXT}</p>
        <div className="route-error__actions">
          <Button onClick={onRetry}>Try Again</Button>
          <Button variant="secondary" onClick={() => window.location.assign('/')}>
            Go Home
          </Button>
        </div>
      </Card>
    </div>
  );
}

/** Spec 000 §2 and 001 §2: every route of both apps has its own boundary with a route-specific title. */
export function RouteBoundary({ title, children }: { title: string; children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary title={title} resetKey={pathname}>
      {children}
    </ErrorBoundary>
  );
}
