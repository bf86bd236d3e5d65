import { ApiError } from '@mate/api-client';
import { AUTH_TOKEN_KEY, AUTH_USER_KEY, GdprMessages, LEGACY_TOKEN_KEY, type MemberDataExport } from '@mate/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UNAUTHORIZED_EVENT } from '../../auth/AuthContext';
import { exportFileName } from '../../lib/download';
import { signedInApi, type FakeApi } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';

const ROUTE = '/settings/privacy';

const theExport = {
  format: 'mate-data-export',
  formatVersion: 1,
  userId: 'a1b2c3d4-e5f6-7890-abcd-ef0123456789',
  exportedAt: '2026-11-23T10:00:00.000Z',
  account: { email: 'ada@example.com' },
} as unknown as MemberDataExport;

interface SavedFile {
  name: string;
  blob: Blob;
}

/** jsdom cannot download: the Blob URL and the link's click are where the file leaves the page. */
function watchDownloads(): SavedFile[] {
  const saved: SavedFile[] = [];
  const blobs = new Map<string, Blob>();
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const url = `blob:http://localhost/${blobs.size + 1}`;
    blobs.set(url, blob);
    return url;
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) saved.push({ name: this.download, blob });
  });
  return saved;
}

const deleteCard = () => screen.getByRole('region', { name: 'Delete Account' });
const downloadCard = () => screen.getByRole('region', { name: 'Download Your Data' });

describe('PrivacyScreen (/settings/privacy)', () => {
  let api: FakeApi;
  const originalCreate = URL.createObjectURL;
  const originalRevoke = URL.revokeObjectURL;
  beforeEach(() => {
    api = signedInApi();
  });
  afterEach(() => {
    URL.createObjectURL = originalCreate;
    URL.revokeObjectURL = originalRevoke;
  });

  describe('Download Data', () => {
    it('downloads the export pretty-printed as mate-data-export-YYYY-MM-DD.json', async () => {
      const user = userEvent.setup();
      const saved = watchDownloads();
      api.gdpr.exportData.mockResolvedValue(theExport);
      renderWithApp(api, { route: ROUTE });

      await user.click(await screen.findByRole('button', { name: 'Download Data' }));

      await waitFor(() => expect(saved).toHaveLength(1));
      const today = new Date();
      const date = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
      expect(saved[0].name).toBe(`mate-data-export-${date}.json`);
      expect(saved[0].blob.type).toBe('application/json');
      expect(await saved[0].blob.text()).toBe(JSON.stringify(theExport, null, 2));
      expect(api.gdpr.exportData).toHaveBeenCalledTimes(1);
      expect(within(downloadCard()).getByRole('status')).toHaveTextContent('Your data has been downloaded.');
      await waitFor(() => expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/1'));
      // The link is gone again.
      expect(document.querySelector('a[download]')).toBeNull();
    });

    it("names the file after the member's own day", () => {
      expect(exportFileName(new Date(2026, 0, 5, 23, 59))).toBe('mate-data-export-2026-01-05.json');
      expect(exportFileName(new Date(2026, 10, 23, 0, 1))).toBe('mate-data-export-2026-11-23.json');
    });

    it("shows the server's error text, or 'Failed to export data', in a red banner and saves nothing", async () => {
      const user = userEvent.setup();
      const saved = watchDownloads();
      api.gdpr.exportData.mockRejectedValueOnce(new ApiError(GdprMessages.tooManyExports, 429, GdprMessages.tooManyExports));
      api.gdpr.exportData.mockRejectedValueOnce(new ApiError('Failed to export data', 0));
      renderWithApp(api, { route: ROUTE });

      await user.click(await screen.findByRole('button', { name: 'Download Data' }));
      expect(await within(downloadCard()).findByRole('alert')).toHaveTextContent(GdprMessages.tooManyExports);
      await user.click(screen.getByRole('button', { name: 'Download Data' }));
      await waitFor(() => expect(within(downloadCard()).getByRole('alert')).toHaveTextContent('Failed to export data'));
      expect(saved).toHaveLength(0);
    });
  });

  describe('Delete Account', () => {
    const expand = async (user: ReturnType<typeof userEvent.setup>) => {
      await user.click(await within(await screen.findByRole('region', { name: 'Delete Account' })).findByRole('button', { name: 'Delete Account' }));
      return within(deleteCard()).getByRole('textbox', { name: 'Type your email to confirm' });
    };

    it('expands to the warning, the email confirmation and Permanently Delete (disabled until an email is typed) and Cancel', async () => {
      const user = userEvent.setup();
      renderWithApp(api, { route: ROUTE });
      expect(await screen.findByRole('heading', { level: 1, name: 'Privacy & Data' })).toBeInTheDocument();
      expect(within(deleteCard()).queryByRole('textbox')).not.toBeInTheDocument();

      const email = await expand(user);
      expect(within(deleteCard()).getByRole('status')).toHaveTextContent('This cannot be undone');
      expect(within(deleteCard()).getByText(/permanently deleted/)).toBeInTheDocument();
      expect(email).toHaveFocus();
      const confirm = within(deleteCard()).getByRole('button', { name: 'Permanently Delete' });
      expect(confirm).toBeDisabled();
      await user.type(email, '   ');
      expect(confirm).toBeDisabled();
      await user.type(email, 'ada@example.com');
      expect(confirm).toBeEnabled();
      expect(api.gdpr.deleteAccount).not.toHaveBeenCalled();
    });

    it('Cancel collapses the panel and clears the email; the next opening starts empty', async () => {
      const user = userEvent.setup();
      renderWithApp(api, { route: ROUTE });
      await user.type(await expand(user), 'ada@example.com');

      await user.click(within(deleteCard()).getByRole('button', { name: 'Cancel' }));
      expect(within(deleteCard()).queryByRole('textbox')).not.toBeInTheDocument();
      expect(within(deleteCard()).getByRole('button', { name: 'Delete Account' })).toHaveFocus();

      expect(await expand(user)).toHaveValue('');
      expect(api.gdpr.deleteAccount).not.toHaveBeenCalled();
    });

    it('sends the typed email as confirmation; on success the token (both keys) and user are removed and the member lands on /login', async () => {
      const user = userEvent.setup();
      api.gdpr.deleteAccount.mockResolvedValue({ message: GdprMessages.accountDeleted });
      const { visited } = renderWithApp(api, { route: ROUTE });
      await user.type(await expand(user), 'ada@example.com');
      await user.click(within(deleteCard()).getByRole('button', { name: 'Permanently Delete' }));

      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
      expect(api.gdpr.deleteAccount).toHaveBeenCalledWith('ada@example.com');
      expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
      expect(window.localStorage.getItem(LEGACY_TOKEN_KEY)).toBeNull();
      expect(window.localStorage.getItem(AUTH_USER_KEY)).toBeNull();
      // The sign-in screen, not a signed-in one.
      expect(await screen.findByRole('button', { name: /sign in/i })).toBeInTheDocument();
      expect(visited).not.toContain('/');
    });

    it('lands on /login, never on /, when the ended session signs the member out before the answer arrives', async () => {
      const user = userEvent.setup();
      let answer!: (value: { message: string }) => void;
      api.gdpr.deleteAccount.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
      const { visited } = renderWithApp(api, { route: ROUTE });
      await user.type(await expand(user), 'ada@example.com');
      await user.click(within(deleteCard()).getByRole('button', { name: 'Permanently Delete' }));

      // The deletion ended every session: the app hears of it first (here as a refused call).
      act(() => {
        window.dispatchEvent(new CustomEvent(UNAUTHORIZED_EVENT, { detail: { token: 'stored-token' } }));
      });
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
      answer({ message: GdprMessages.accountDeleted });

      expect(await screen.findByRole('button', { name: /sign in/i })).toBeInTheDocument();
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/);
      expect(visited).not.toContain('/');
      expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    });

    it('a failed deletion takes the /login destination back: signing out later lands on /', async () => {
      const user = userEvent.setup();
      api.gdpr.deleteAccount.mockRejectedValueOnce(new ApiError('Failed to delete account', 500));
      renderWithApp(api, { route: ROUTE });
      await user.type(await expand(user), 'ada@example.com');
      await user.click(within(deleteCard()).getByRole('button', { name: 'Permanently Delete' }));
      expect(await within(deleteCard()).findByRole('alert')).toHaveTextContent('Failed to delete account');

      act(() => {
        window.dispatchEvent(new CustomEvent(UNAUTHORIZED_EVENT, { detail: { token: 'stored-token' } }));
      });
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    });

    it("shows the server's error as is, or 'Failed to delete account', and keeps the member signed in", async () => {
      const user = userEvent.setup();
      api.gdpr.deleteAccount.mockRejectedValueOnce(
        new ApiError(GdprMessages.confirmEmailMismatch, 400, GdprMessages.confirmEmailMismatch),
      );
      api.gdpr.deleteAccount.mockRejectedValueOnce(new ApiError('Failed to delete account', 500));
      renderWithApp(api, { route: ROUTE });
      const email = await expand(user);
      await user.type(email, 'bea@example.com');
      await user.click(within(deleteCard()).getByRole('button', { name: 'Permanently Delete' }));

      expect(await within(deleteCard()).findByRole('alert')).toHaveTextContent(GdprMessages.confirmEmailMismatch);
      await user.type(email, '{Enter}');
      await waitFor(() => expect(within(deleteCard()).getByRole('alert')).toHaveTextContent('Failed to delete account'));
      expect(screen.getByTestId('location')).toHaveTextContent(ROUTE);
      expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBe('stored-token');
      expect(window.localStorage.getItem(AUTH_USER_KEY)).not.toBeNull();
    });
  });
});
