import type { DeleteAccountRequest, GdprExportResponse, MessageResponse } from '@mate/contracts';
import { ApiError } from './errors';
import type { HttpClient } from './http';

/** Spec 001 §8 fallbacks, shown only when the server gives no `error`. */
export const GdprClientMessages = {
  exportFailed: 'Failed to export data',
  deleteAccountFailed: 'Failed to delete account',
} as const;

export interface GdprApi {
  /** POST /api/gdpr/export → the member's whole data export (`data`). */
  exportData(): Promise<GdprExportResponse['data']>;
  /** POST /api/gdpr/delete-account `{ confirmEmail }`: the typed email is the confirmation (spec 001 §5). */
  deleteAccount(confirmEmail: string): Promise<MessageResponse | undefined>;
}

export function createGdprApi(http: HttpClient): GdprApi {
  return {
    async exportData() {
      const body = await http.post<Partial<GdprExportResponse> | undefined>('/api/gdpr/export', {
        fallbackMessage: GdprClientMessages.exportFailed,
      });
      if (!body || typeof body.data !== 'object' || body.data === null) {
        throw new ApiError(GdprClientMessages.exportFailed, 200);
      }
      return body.data;
    },
    deleteAccount(confirmEmail) {
      const request: DeleteAccountRequest = { confirmEmail: confirmEmail.trim() };
      return http.post<MessageResponse | undefined>('/api/gdpr/delete-account', {
        body: request,
        fallbackMessage: GdprClientMessages.deleteAccountFailed,
      });
    },
  };
}
