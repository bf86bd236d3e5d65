import { describe, expect, it } from 'vitest';
import { formatMessageTime, formatSessionActivity } from './relative-time';

const now = new Date('2026-03-10T12:00:00Z').getTime();
const ago = (ms: number) => new Date(now - ms).toISOString();
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('formatSessionActivity', () => {
  it("says 'Just now' under a minute, and for a clock slightly ahead", () => {
    expect(formatSessionActivity(ago(0), now)).toBe('Just now');
    expect(formatSessionActivity(ago(59 * SECOND), now)).toBe('Just now');
    expect(formatSessionActivity(new Date(now + 5 * SECOND), now)).toBe('Just now');
  });

  it('counts minutes, hours and days with the right plural', () => {
    expect(formatSessionActivity(ago(MINUTE), now)).toBe('1 minute ago');
    expect(formatSessionActivity(ago(59 * MINUTE), now)).toBe('59 minutes ago');
    expect(formatSessionActivity(ago(HOUR), now)).toBe('1 hour ago');
    expect(formatSessionActivity(ago(23 * HOUR + 59 * MINUTE), now)).toBe('23 hours ago');
    expect(formatSessionActivity(ago(DAY), now)).toBe('1 day ago');
    expect(formatSessionActivity(ago(6 * DAY + 23 * HOUR), now)).toBe('6 days ago');
  });

  it('shows the date from 7 days on', () => {
    const date = ago(7 * DAY);
    expect(formatSessionActivity(date, now)).toBe(new Date(date).toLocaleDateString());
  });

  it('does not crash on a bad date', () => {
    expect(formatSessionActivity('not a date', now)).toBe('Unknown');
  });
});

describe('formatMessageTime', () => {
  it('uses the short forms of spec 000 §5', () => {
    expect(formatMessageTime(ago(30 * SECOND), now)).toBe('Just now');
    expect(formatMessageTime(ago(5 * MINUTE), now)).toBe('5m ago');
    expect(formatMessageTime(ago(3 * HOUR), now)).toBe('3h ago');
    expect(formatMessageTime(ago(2 * DAY), now)).toBe('2d ago');
    const old = ago(8 * DAY);
    expect(formatMessageTime(old, now)).toBe(new Date(old).toLocaleDateString());
  });
});
