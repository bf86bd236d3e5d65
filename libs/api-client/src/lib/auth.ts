import type {
  AuthResponse,
  LoginRequest,
  MessageResponse,
  RegisterRequest,
  RequestEmailChangeRequest,
  ResetPasswordRequest,
  UserDto,
  VerifyEmailChangeResponse,
  VerifyResetTokenResponse,
} from '@mate/contracts';
import { ApiError } from './errors';
import type { HttpClient } from './http';
import { ClientMessages } from './messages';

export interface AuthApi {
  register(request: RegisterRequest): Promise<AuthResponse>;
  login(request: LoginRequest): Promise<AuthResponse>;
  logout(): Promise<void>;
  me(): Promise<UserDto>;
  forgotPassword(email: string): Promise<MessageResponse>;
  verifyResetToken(token: string): Promise<VerifyResetTokenResponse>;
  resetPassword(request: ResetPasswordRequest): Promise<MessageResponse>;
  /**
   * Spec 001 §7: sent with the token of the second storage key, so the caller passes it.
   * A missing token fails with 'Not authenticated' without a request.
   */
  requestEmailChange(request: RequestEmailChangeRequest, token: string | null | undefined): Promise<MessageResponse>;
  verifyEmailChange(token: string): Promise<VerifyEmailChangeResponse>;
  /**
   * Cancels a pending email change with the token of the link sent to the current address
   * (issue 7). Public: the link may be opened where nobody is signed in.
   */
  cancelEmailChange(token: string): Promise<MessageResponse>;
}

/** Some servers wrap the user (`{ user }`), some answer with it directly; accept both. */
function unwrapUser(body: unknown): UserDto {
  const record = (body ?? {}) as Record<string, unknown>;
  const user = record['user'] && typeof record['user'] === 'object' ? record['user'] : record;
  return user as UserDto;
}

function checkAuthResponse(body: AuthResponse | undefined): AuthResponse {
  if (!body || typeof body.token !== 'string' || !body.token || !body.user) {
    throw new ApiError(ClientMessages.authenticationFailed, 200);
  }
  return body;
}

export function createAuthApi(http: HttpClient): AuthApi {
  return {
    async register(request) {
      return checkAuthResponse(await http.post<AuthResponse>('/api/auth/register', { body: request, auth: false }));
    },
    async login(request) {
      return checkAuthResponse(await http.post<AuthResponse>('/api/auth/login', { body: request, auth: false }));
    },
    async logout() {
      await http.post<unknown>('/api/auth/logout');
    },
    async me() {
      return unwrapUser(await http.get<unknown>('/api/auth/me', { cache: 'no-store' }));
    },
    forgotPassword(email) {
      return http.post('/api/auth/forgot-password', {
        body: { email },
        auth: false,
        fallbackMessage: ClientMessages.sendResetFailed,
      });
    },
    verifyResetToken(token) {
      return http.post('/api/auth/verify-reset-token', {
        body: { token },
        auth: false,
        fallbackMessage: ClientMessages.resetLinkInvalid,
      });
    },
    resetPassword(request) {
      return http.post('/api/auth/reset-password', {
        body: request,
        auth: false,
        fallbackMessage: ClientMessages.resetFailed,
      });
    },
    async requestEmailChange(request, token) {
      if (!token) throw new ApiError(ClientMessages.notAuthenticated, 0);
      return http.post('/api/auth/request-email-change', {
        body: request,
        auth: { token },
        fallbackMessage: ClientMessages.requestEmailChangeFailed,
      });
    },
    verifyEmailChange(token) {
      return http.post('/api/auth/verify-email-change', {
        body: { token },
        auth: false,
        fallbackMessage: ClientMessages.verifyEmailChangeFailed,
      });
    },
    cancelEmailChange(token) {
      return http.post('/api/auth/cancel-email-change', {
        body: { token },
        auth: false,
        fallbackMessage: ClientMessages.cancelEmailChangeFailed,
      });
    },
  };
}
