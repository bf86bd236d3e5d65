import { plainToInstance } from 'class-transformer';
import { IsString, validateSync } from 'class-validator';
import { IsPersonName, isPersonName, PERSON_NAME_MESSAGE } from './person-name';

describe('IsPersonName (issue 7, item 6)', () => {
  it.each([
    'Ana',
    "Seán O'Brien",
    'José María de la Cruz',
    'Anne-Marie',
    'J.R.R. Tolkien',
    'St. John',
    'Dr. Ana Silva',
    'Zoë',
    '李小龍',
    'Αλέξανδρος',
    'محمد',
    'Ana 🌸',
    'Mary Jane 2',
    'Мария',
    '李小龙',
    'Мария Smith',
  ])('accepts %j', (name) => {
    expect(isPersonName(name)).toBe(true);
  });

  it.each([
    ['a URL', 'https://evil.example/login'],
    ['the review’s greeting', 'Security team: your account is at risk, re-login at https://evil.example'],
    ['a bare domain', 'Security team, re-login at evil.com'],
    ['a domain with a path', 'bit.ly/abc'],
    ['a domain ending the name', 'visit mate-support.net'],
    ['www.', 'www.mate-login'],
    ['an email address', 'support@mate'],
    ['a mailto link', 'mailto:x'],
    ['a javascript: link', 'javascript:alert(1)'],
    ['a full-width dot', 'evil\uFF0Ecom'],
    ['an ideographic dot', 'evil\u3002com'],
    ['full-width letters', 'ｅｖｉｌ.ｃｏｍ'],
    ['an IP address', 'go to 10.0.0.1 now'],
    ['a punycode domain', 'login.xn--80ak6aa92e'],
    ['a NUL', 'Ana\u0000'],
    ['a newline', 'Ana\nClick here'],
    ['a tab', 'Ana\tB'],
    ['a right-to-left override', 'Ana\u202Emoc.live'],
    ['a zero-width space', 'evil\u200B.com'],
    ['a soft hyphen', 'ev\u00ADil'],
    // Round 2: any two-letter ending reads as a domain, not only a list of TLDs.
    ['a .ai domain', 'mate-login.ai'],
    ['a .zip domain with a path', 'evil.zip/login'],
    ['a .email domain', 'evil.email'],
    ['a .gg domain', 'evil.gg'],
    ['a Cyrillic ending', 'evil.\u0441\u043Em'],
    ['an IDN ending', 'mate.\u0440\u0444'],
    ['an initial glued to a surname', 'A.De Silva'],
    ['an ideographic dot before CJK', '李小龙\u3002中国'],
    // Words that mix look-alike scripts are homographs.
    ['Latin with a Cyrillic а', 'p\u0430ypal'],
    ['Cyrillic with a Latin p', '\u0410pple'],
    ['Latin with a Greek ο', 'G\u03BFogle Support'],
    ['Cyrillic with Greek', '\u041C\u03B1\u0440\u0438\u044F'],
  ])('refuses %s', (_what, name) => {
    expect(isPersonName(name)).toBe(false);
  });

  it('accepts the names people write with dots, apostrophes and hyphens, in every script', () => {
    for (const name of ['J.R.R. Tolkien', 'St. John', "O'Brien", 'Anne-Marie', 'José', '李小龙', 'Мария']) {
      expect(isPersonName(name)).toBe(true);
    }
  });

  it('refuses values that are not text', () => {
    expect(isPersonName(42)).toBe(false);
    expect(isPersonName(null)).toBe(false);
  });

  it('reports the clear message on a DTO', () => {
    class Body {
      @IsPersonName()
      @IsString()
      name!: string;
    }
    const errors = validateSync(plainToInstance(Body, { name: 'see evil.com' }));
    expect(errors[0]?.constraints).toEqual({ isPersonName: PERSON_NAME_MESSAGE });
    expect(validateSync(plainToInstance(Body, { name: 'Ana' }))).toEqual([]);
  });
});
