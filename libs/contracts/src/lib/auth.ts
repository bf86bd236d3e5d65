import type { Role } from './constants';

/** The user record returned by auth calls and kept in `auth_user`. */
export interface UserDto {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  isVerified: boolean;
  createdAt: string;
}

export interface AuthResponse {
  token: string;
  user: UserDto;
}

export interface RegisterRequest {
  email: string;
  password: string;
  name?: string;
  age?: number;
}

export interface LoginRequest {
  email: string;
  password: string;
}

export interface ForgotPasswordRequest {
  email: string;
}

export interface TokenRequest {
  token: string;
}

export interface ResetPasswordRequest {
  token: string;
  newPassword: string;
}

export interface RequestEmailChangeRequest {
  newEmail: string;
}

export interface VerifyEmailChangeResponse {
  message: string;
  newEmail: string;
}

export interface MessageResponse {
  message: string;
}

export interface VerifyResetTokenResponse {
  valid: true;
}

/** Session of spec 001 §3. */
export interface SessionDto {
  id: string;
  deviceInfo: string;
  ipAddress?: string;
  lastActivity: string;
  createdAt: string;
  isCurrent: boolean;
}

/** What a verified bearer token says about its holder. */
export interface JwtClaims {
  sub: string;
  sid: string;
  role: Role;
  iat?: number;
  exp?: number;
}

/** The principal a guard attaches to a request. */
export interface AuthPrincipal {
  userId: string;
  sessionId: string;
  role: Role;
  /** The account's email is verified (as the session records it); most routes need it. */
  verified: boolean;
}

/** Messages the server answers with, shared so tests and clients agree on the words. */
export const AuthMessages = {
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists',
  accountSuspended: 'This account has been suspended',
  forgotPasswordSent: "If an account exists with that email, you'll receive a password reset link shortly.",
  resetLinkInvalid: 'This password reset link is invalid or has expired.',
  verificationLinkInvalid: 'This verification link is invalid or has expired.',
  passwordReset: 'Your password has been reset. You can now sign in.',
  verificationSent: 'Verification email sent',
  alreadyVerified: 'Email is already verified',
  emailVerified: 'Email verified successfully',
  emailChangeRequested: 'We sent a verification link to your new email address. Your email will change once you open it.',
  emailChangeSame: 'The new email is the same as your current email',
  emailChanged: 'Email updated successfully',
  emailChangeCancelled: 'The email change was cancelled. Your account keeps its current address.',
  emailChangeCancelInvalid: 'This cancellation link is invalid or has expired.',
  emailNotVerified: 'Please verify your email address to use this feature',
  loggedOut: 'Logged out',
  sessionRevoked: 'Session logged out',
  otherSessionsRevoked: 'All other sessions logged out',
  cannotRevokeCurrent: 'Use Logout to end the current session',
  sessionNotFound: 'Session not found',
  tooManyAttempts: 'Too many attempts. Please try again later.',
  authRequired: 'Authentication required',
  sessionExpired: 'Your session has expired. Please sign in again.',
  adminRequired: 'Admin access required',
} as const;

/** Codes of auth's refusals, one per cause (the session guard's own stay `ErrorCode`). */
export enum AuthErrorCode {
  EmailTaken = 'EMAIL_TAKEN',
  InvalidCredentials = 'INVALID_CREDENTIALS',
  AccountSuspended = 'ACCOUNT_SUSPENDED',
  /** A reset, verification or cancellation link that is unknown, used or expired. */
  InvalidToken = 'INVALID_TOKEN',
  AlreadyVerified = 'ALREADY_VERIFIED',
  EmailChangeSame = 'EMAIL_CHANGE_SAME',
  CannotRevokeCurrent = 'CANNOT_REVOKE_CURRENT_SESSION',
  SessionNotFound = 'SESSION_NOT_FOUND',
  AccountNotFound = 'ACCOUNT_NOT_FOUND',
  /** 401: the caller's account was deleted meanwhile (its session ended with it). */
  AccountDeleted = 'ACCOUNT_DELETED',
  /** The command line's admin:revoke of an address ADMIN_EMAILS lists. */
  AdminEmailListed = 'ADMIN_EMAIL_LISTED',
}

/** The account's part of a data export (issue 12; auth-service). */
export interface AccountExportPart {
  id: string;
  email: string;
  name: string | null;
  age: number | null;
  role: Role;
  isVerified: boolean;
  createdAt: string;
  /** When the address was proven (the verification link, or a confirmed email change). */
  emailVerifiedAt?: string | null;
  /** A moderator's suspension of the account, with the reason they gave. */
  suspendedAt?: string | null;
  suspensionReason?: string | null;
  /** Every live or past session the service still keeps. */
  sessions: { id: string; deviceInfo: string; ipAddress: string | null; createdAt: string; lastActivity: string; revokedAt: string | null }[];
  /**
   * Email changes requested (addresses and times). `completedAt`: when the change was confirmed;
   * null while it is pending or once it was called off, replaced or left to expire.
   */
  emailChanges: { newEmail: string; requestedAt: string; completedAt: string | null }[];
  /** The last day the member used the app (issue 13's member.active), or null before it was recorded. */
  lastActiveAt?: string | null;
  /** The UTC days (YYYY-MM-DD) on which the member used the app, as auth-service records them. */
  activeDays?: string[];
}

/** `POST /api/gdpr/delete-account`. */
export interface DeleteAccountRequest {
  confirmEmail: string;
}

export const GdprMessages = {
  confirmEmailMismatch: 'The email does not match your account email',
  accountDeleted: 'Your account has been deleted',
  exportUnavailable: 'Your data export is not available right now. Please try again in a few minutes.',
  tooManyExports: 'Too many export requests. Please try again later.',
  /** Issue 24: an admin's account keeps the audit trail's author; the role goes first, by the command line. */
  adminCannotDeleteAccount:
    'An admin account cannot be deleted while it has the admin role. Have the role revoked first (npm run admin:revoke), then delete the account.',
} as const;

/** Codes of the data rights' refusals (auth-service's gdpr module). */
export enum GdprErrorCode {
  ConfirmEmailMismatch = 'CONFIRM_EMAIL_MISMATCH',
  AdminCannotDeleteAccount = 'ADMIN_CANNOT_DELETE_ACCOUNT',
}
