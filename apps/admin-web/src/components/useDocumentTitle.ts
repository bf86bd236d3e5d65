import { useEffect } from 'react';

/** Names the browser tab after the screen, so history and screen readers say where you are. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Mate Admin` : 'Mate Admin';
  }, [title]);
}
