import type { RegisterRequest } from '@mate/contracts';

export interface SignUpFields {
  email: string;
  password: string;
  name: string;
  age: string;
}

/**
 * Spec 000 §3 sign-up payload: email, password, name (optional), age (optional integer, parsed
 * base 10, omitted if empty).
 */
export function buildSignUpPayload({ email, password, name, age }: SignUpFields): RegisterRequest {
  const payload: RegisterRequest = { email: email.trim(), password };
  const trimmedName = name.trim();
  if (trimmedName) payload.name = trimmedName;
  if (age.trim() !== '') {
    const parsed = parseInt(age, 10);
    if (!Number.isNaN(parsed)) payload.age = parsed;
  }
  return payload;
}
