/**
 * Per-call fallback messages of spec 000 §8 and 001 §8: shown only when the server gives no
 * `error` field. Auth calls (login, register, me, logout) have none; they follow the
 * error → message → status text → 'An error occurred' rule.
 */
export const ClientMessages = {
  authenticationFailed: 'Authentication failed',
  notAuthenticated: 'Not authenticated',
  sendVerificationFailed: 'Failed to send verification email',
  verificationFailed: 'Verification failed',
  sendResetFailed: 'Failed to send reset email',
  resetLinkInvalid: 'Invalid or expired reset link',
  resetFailed: 'Failed to reset password',
  requestEmailChangeFailed: 'Failed to request email change',
  verifyEmailChangeFailed: 'Failed to verify email change',
  /** Not in the spec (issue 7 added the cancellation link); named like its sibling. */
  cancelEmailChangeFailed: 'Failed to cancel email change',
  fetchSessionsFailed: 'Failed to fetch sessions',
  deleteSessionFailed: 'Failed to delete session',
  logoutAllSessionsFailed: 'Failed to logout all sessions',
  getProfileFailed: 'Failed to get profile',
  updateProfileFailed: 'Failed to update profile',
  getProfileCompletionFailed: 'Failed to get profile completion',
  addPhotoFailed: 'Failed to add photo',
  deletePhotoFailed: 'Failed to delete photo',
  setPrimaryPhotoFailed: 'Failed to set primary photo',
  reorderPhotosFailed: 'Failed to reorder photos',
  completeOnboardingFailed: 'Failed to complete onboarding',
  getUserProfileFailed: 'Failed to get user profile',
  fetchPhotosFailed: 'Failed to fetch photos',
  uploadPhotoFailed: 'Failed to upload photo',
  /** The profile screen's own upload fallback (spec 000 §5). */
  uploadFailed: 'Upload failed',
  getPreferencesFailed: 'Failed to get preferences',
  updatePreferencesFailed: 'Failed to update preferences',
  /**
   * Not in the spec (issue 8 added the calls; the spec's matching fallbacks are in the contracts'
   * MatchingMessages); named like their siblings.
   */
  passFailed: 'Failed to pass user',
  rewindFailed: 'Failed to rewind',
  getMatchStatsFailed: 'Failed to get match stats',
} as const;
