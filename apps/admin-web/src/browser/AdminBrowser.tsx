import { createContext, useContext, type ReactNode } from 'react';

/**
 * What the admin screens ask of the browser itself: spec 001 §5's prompts and confirmations and
 * §2's alerts, leaving the app (the member app, the queue dashboard) and saving a file. Behind a
 * seam so tests drive the answers and see what would have been shown.
 */
export interface AdminBrowser {
  /** `window.prompt`: the text typed, or null when cancelled. */
  prompt(message: string): string | null;
  confirm(message: string): boolean;
  alert(message: string): void;
  /** A full-page navigation to another origin (the member app). */
  assign(url: string): void;
  /** Opens a page in a new tab (the queue dashboard). */
  open(url: string): void;
  /** Saves a text file produced in the browser (the analytics export). */
  download(fileName: string, content: string, type: string): void;
}

export const windowBrowser: AdminBrowser = {
  prompt: (message) => window.prompt(message),
  confirm: (message) => window.confirm(message),
  alert: (message) => window.alert(message),
  assign: (url) => window.location.assign(url),
  open: (url) => {
    window.open(url, '_blank', 'noopener,noreferrer');
  },
  download: (fileName, content, type) => {
    const url = URL.createObjectURL(new Blob([content], { type }));
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.appendChild(link);
    link.click();
    link.remove();
    // After the click has started the download.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  },
};

export interface AdminEnvironment {
  browser: AdminBrowser;
  /** The member app's origin, e.g. http://localhost:4200. */
  memberWebUrl: string;
}

const AdminEnvironmentContext = createContext<AdminEnvironment>({ browser: windowBrowser, memberWebUrl: '' });

export function AdminEnvironmentProvider({ value, children }: { value: AdminEnvironment; children: ReactNode }) {
  return <AdminEnvironmentContext.Provider value={value}>{children}</AdminEnvironmentContext.Provider>;
}

export function useBrowser(): AdminBrowser {
  return useContext(AdminEnvironmentContext).browser;
}

/** The member app's address for a path (`/dashboard`). */
export function useMemberAppUrl(path = '/dashboard'): string {
  return `${useContext(AdminEnvironmentContext).memberWebUrl}${path}`;
}
