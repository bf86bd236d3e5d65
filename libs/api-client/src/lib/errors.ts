import { FALLBACK_ERROR_MESSAGE } from '@mate/contracts';

/**
 * What every failed call throws. `message` follows spec 000 §8; `serverMessage` is the body's
 * `error` field when the server sent one, so a screen can prefer it over its own wording.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    message: string,
    /** HTTP status, or 0 when the request never got an answer. */
    readonly status: number,
    readonly serverMessage?: string,
    readonly code?: string,
    readonly body?: unknown,
  ) {
    super(message);
    Object.setPrototypeOf(this, ApiError.prototype);
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function field(body: unknown, key: string): string | undefined {
  return body && typeof body === 'object' ? nonEmptyString((body as Record<string, unknown>)[key]) : undefined;
}

/**
 * Spec 000 §8. Without a per-call fallback (auth calls): the body's `error`, else its `message`,
 * else the HTTP status text, else 'An error occurred'. With one: the body's `error`, else the
 * fallback ("shown only when the server gives no error field").
 */
export function errorMessageFor(body: unknown, statusText: string | undefined, fallback?: string): string {
  const serverError = field(body, 'error');
  if (serverError) return serverError;
  if (fallback) return fallback;
  return field(body, 'message') ?? nonEmptyString(statusText) ?? FALLBACK_ERROR_MESSAGE;
}

/** A screen's own wording, unless the server explained itself (spec 001 §8: server text shown as is). */
export function displayMessage(error: unknown, screenMessage: string): string {
  return isApiError(error) && error.serverMessage ? error.serverMessage : screenMessage;
}

export function serverErrorOf(body: unknown): { serverMessage?: string; code?: string } {
  return { serverMessage: field(body, 'error'), code: field(body, 'code') };
}
