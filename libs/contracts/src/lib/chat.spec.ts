import { CHAT_MESSAGE_MAX_LENGTH, messageLength, normalizeMessageContent } from './chat';

describe('normalizeMessageContent', () => {
  it('trims and strips control characters and bidi overrides, keeping tabs and newlines inside', () => {
    expect(normalizeMessageContent('  hi\u0000 there\u202E!\r\n')).toBe('hi there!');
    expect(normalizeMessageContent('line one\n\tline two')).toBe('line one\n\tline two');
  });

  it('makes a message of only invisible or blank characters empty', () => {
    for (const blank of ['\u200B\u200B', '\u2060', '\u00AD', '\u3164\u3164', '\u2800', '\u115F\u1160', '\uFEFF', ' \u00A0\u2003 ']) {
      expect(normalizeMessageContent(blank)).toBe('');
    }
  });

  it('keeps invisible joiners between visible characters (one emoji of several)', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    expect(normalizeMessageContent(` ${family} `)).toBe(family);
    expect(normalizeMessageContent('a\u200Bb')).toBe('a\u200Bb');
  });
});

describe('messageLength', () => {
  it('counts code points, so an emoji counts once and the limit is in characters', () => {
    expect(messageLength('\u{1F600}'.repeat(CHAT_MESSAGE_MAX_LENGTH))).toBe(CHAT_MESSAGE_MAX_LENGTH);
    expect(messageLength('abc')).toBe(3);
  });
});
