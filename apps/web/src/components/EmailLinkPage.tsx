import { displayMessage } from '@mate/api-client';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { AuthLayout } from './AuthLayout';
import { StatusPanel, type StatusPanelProps } from './StatusPanel';
import { useDocumentTitle } from './useDocumentTitle';
import { useEmailLinkVerification } from './useEmailLink';

/** The card an email-link page shows its state in, on the public layout; read out as it changes. */
export function EmailLinkCard({ children }: { children: ReactNode }) {
  return (
    <AuthLayout>
      <div className="mate-card mate-card--strong mate-card--pad-lg auth-card" aria-live="polite">
        {children}
      </div>
    </AuthLayout>
  );
}

export interface EmailLinkPageProps<T> {
  /** The tab's title. */
  documentTitle: string;
  /** Sends the link's `?token=` to the server, exactly once. */
  send: (token: string) => Promise<T>;
  /** ms after a success before going to `/`; `null` stays on the page. */
  redirectDelay: number | null;
  onSuccess?: (data: T) => void;
  /** While the token is being sent, e.g. 'Verifying your email...'. */
  pendingTitle: string;
  /** The failure panel: its title, button(s), what it says when the link has no token, and
   * what it says when the server refused the token without a reason of its own. */
  failure: { title: string; actions: ReactNode; noToken: string; fallback: string };
  /** The success panel, from the server's answer. */
  success: (data: T) => Omit<StatusPanelProps, 'tone'>;
}

/**
 * A page opened from an emailed single-use link (`/verify-email`, `/verify-email-change`,
 * `/cancel-email-change`): sends the token once, then shows pending, success or failure.
 * A missing token fails at once without calling the server.
 */
export function EmailLinkPage<T>({
  documentTitle,
  send,
  redirectDelay,
  onSuccess,
  pendingTitle,
  failure,
  success,
}: EmailLinkPageProps<T>) {
  const [params] = useSearchParams();
  const token = params.get('token');
  const link = useEmailLinkVerification(token, send, redirectDelay, onSuccess);
  useDocumentTitle(documentTitle);

  let content;
  if (!token || link.isError) {
    content = (
      <StatusPanel tone="error" title={failure.title} actions={failure.actions}>
        <p>{token ? displayMessage(link.error, failure.fallback) : failure.noToken}</p>
      </StatusPanel>
    );
  } else if (link.isSuccess) {
    content = <StatusPanel tone="success" {...success(link.data)} />;
  } else {
    content = (
      <StatusPanel tone="pending" title={pendingTitle}>
        <p>This only takes a moment.</p>
      </StatusPanel>
    );
  }
  return <EmailLinkCard>{content}</EmailLinkCard>;
}
