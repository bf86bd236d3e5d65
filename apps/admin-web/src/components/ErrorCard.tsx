import { Alert } from '@mate/ui';
import type { ReactNode } from 'react';

/** Spec 001 §2/§8: a load failure is a red card with the message. */
export function ErrorCard({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <div className="admin-error-card">
      <Alert tone="error">{message}</Alert>
      {children}
    </div>
  );
}
