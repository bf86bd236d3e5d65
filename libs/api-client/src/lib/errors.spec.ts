import { ApiError, displayMessage, errorMessageFor } from './errors';

describe('errorMessageFor (spec 000 §8)', () => {
  it('prefers the error field, then message, then status text, then the generic text', () => {
    expect(errorMessageFor({ error: 'Invalid email or password', message: 'x' }, 'Unauthorized')).toBe(
      'Invalid email or password',
    );
    expect(errorMessageFor({ message: 'Bad input' }, 'Bad Request')).toBe('Bad input');
    expect(errorMessageFor(undefined, 'Service Unavailable')).toBe('Service Unavailable');
    expect(errorMessageFor('<html>oops</html>', '')).toBe('An error occurred');
    expect(errorMessageFor({ error: '   ' }, undefined)).toBe('An error occurred');
  });

  it('uses a per-call fallback only when the server gives no error field', () => {
    expect(errorMessageFor({ error: 'Too many attempts' }, 'Too Many Requests', 'Failed to send reset email')).toBe(
      'Too many attempts',
    );
    expect(errorMessageFor({ message: 'internal' }, 'Internal Server Error', 'Failed to send reset email')).toBe(
      'Failed to send reset email',
    );
  });
});

describe('displayMessage', () => {
  it("shows the server's own words, else the screen's", () => {
    expect(displayMessage(new ApiError('Failed to fetch sessions', 500, 'Session store down'), 'Failed to load sessions')).toBe(
      'Session store down',
    );
    expect(displayMessage(new ApiError('Failed to fetch sessions', 500), 'Failed to load sessions')).toBe(
      'Failed to load sessions',
    );
    expect(displayMessage(new Error('boom'), 'Failed to load sessions')).toBe('Failed to load sessions');
  });
});
