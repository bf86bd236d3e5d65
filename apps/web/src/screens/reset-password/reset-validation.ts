import { PASSWORD_MIN_LENGTH } from '@mate/contracts';

/** Spec 000 §5: the new password needs 8 characters and a matching confirmation. */
export function validateNewPassword(password: string, confirmation: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return 'Password must be at least 8 characters';
  if (password !== confirmation) return 'Passwords do not match';
  return null;
}
