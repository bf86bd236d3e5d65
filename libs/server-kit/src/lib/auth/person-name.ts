import { ValidateBy, type ValidationOptions } from 'class-validator';

export const PERSON_NAME_MESSAGE = 'Name must not contain links or special characters';

/** Dots as a mail client may read them: ASCII, full-width, ideographic and half-width ideographic. */
const DOT = '[.\\u3002\\uFF0E\\uFF61]';

/** What makes a name a link, or lets it hide one: each is refused. */
const REFUSED: RegExp[] = [
  // Control and format characters (NUL, newlines, bidi overrides, zero-width joiners and spaces).
  /[\p{Cc}\p{Cf}]/u,
  // Any scheme: https://, ftp://, and the slashless ones mail clients link (mailto:, tel:, javascript:).
  /[\p{L}][\p{L}\p{N}+.-]*:\/\//u,
  /\b(?:mailto|tel|sms|javascript|data|file):/iu,
  // www.anything
  new RegExp(`\\bwww${DOT}`, 'iu'),
  // An email address, or half of one.
  /[@\uFF20]/u,
  // name.ending, the dot in any of its look-alikes: every two-or-more-letter ending, not a list of
  // TLDs (new ones keep coming: .ai, .zip, .email, .gg; IDN ones like .рф; xn--). 'J.R.R.' and
  // 'St. John' stay valid (one letter, or a space, after each dot); 'A.De Silva' does not.
  new RegExp(`[\\p{L}\\p{N}-]${DOT}\\p{L}{2,}`, 'u'),
  // An IPv4 address.
  new RegExp(`\\d{1,3}(?:${DOT}\\d{1,3}){3}`, 'u'),
];

/**
 * The scripts whose letters pass for each other ('а' Cyrillic, 'ο' Greek, 'a' Latin): one word
 * using two of them is a homograph ('Аpple', 'pаypal'), not a name.
 */
const LOOKALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u];

function mixesScripts(word: string): boolean {
  return LOOKALIKE_SCRIPTS.filter((script) => script.test(word)).length > 1;
}

/**
 * True when the text could be a name as people write them: no links, no control or format
 * characters, no word mixing Latin, Cyrillic and Greek letters.
 */
export function isPersonName(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const text = value.normalize('NFKC');
  if (REFUSED.some((pattern) => pattern.test(text))) return false;
  return !text.split(/\s+/u).some(mixesScripts);
}

/**
 * A display name that reaches other members and official emails ("Hi <name>,"): mail clients turn
 * bare URLs into links, so a name may not carry one (issue 7, item 6). Put it above the type check
 * (class-validator reports bottom-up): a value that is not text is reported as such first.
 */
export function IsPersonName(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isPersonName', validator: { validate: (value) => isPersonName(value), defaultMessage: () => PERSON_NAME_MESSAGE } },
    { message: PERSON_NAME_MESSAGE, ...options },
  );
}
