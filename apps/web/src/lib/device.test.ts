import { describe, expect, it } from 'vitest';
import { guessDeviceKind } from './device';

describe('guessDeviceKind', () => {
  it.each([
    ['Mobile Safari on iOS (iPhone)', 'phone'],
    ['Chrome Mobile on Android 14', 'phone'],
    ['Safari on iPadOS (iPad)', 'tablet'],
    ['Chrome on Android 13', 'tablet'],
    ['Chrome 131 on macOS', 'desktop'],
    ['Firefox on Windows 11', 'desktop'],
    ['', 'desktop'],
  ])('%s → %s', (info, kind) => {
    expect(guessDeviceKind(info)).toBe(kind);
  });
});
