import type { MessageResponse } from '@mate/contracts';
import type { HttpClient } from './http';
import { ClientMessages } from './messages';

export interface VerificationApi {
  /** Sends a new verification link to the signed-in user. */
  resend(): Promise<MessageResponse>;
  /** Confirms the address with the token from the emailed link (public: no bearer token). */
  verify(token: string): Promise<MessageResponse>;
}

export function createVerificationApi(http: HttpClient): VerificationApi {
  return {
    resend() {
      return http.post('/api/verification/resend', { fallbackMessage: ClientMessages.sendVerificationFailed });
    },
    verify(token) {
      return http.post('/api/verification/verify', {
        body: { token },
        auth: false,
        fallbackMessage: ClientMessages.verificationFailed,
      });
    },
  };
}
