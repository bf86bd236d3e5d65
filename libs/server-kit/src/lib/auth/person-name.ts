import { ValidateBy, type ValidationOptions } from 'class-validator';

export const PERSON_NAME_MESSAGE = 'Name must not contain links or special characters';

/** Dots as a mail client may read them: ASCII, full-width, ideographic and half-width ideographic. */
const DOT = '[.\\u3002\\uFF0E\\uFF61]';

/**
 * Endings that make `word.ending` read as a web address. Not every TLD: two-letter country codes
 * other than the ones link-shorteners and spam favour would refuse too many real names with an
 * initial ("A.De Silva"); the common generic ones and the abused ones are what matter.
 */
const TLDS = [
  'com', 'net', 'org', 'info', 'biz', 'io', 'co', 'me', 'app', 'dev', 'xyz', 'online', 'site', 'top', 'club',
  'link', 'click', 'live', 'shop', 'store', 'tech', 'website', 'page', 'ly', 'gl', 'to', 'cc', 'tk', 'ml', 'ga',
  'cf', 'gq', 'ru', 'cn', 'uk', 'de', 'fr', 'us', 'eu', 'in', 'br', 'ca', 'nl', 'es', 'pl', 'ch', 'jp',
];

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
  // name.tld, with the dot in any of its look-alikes, ending the word or followed by a path.
  new RegExp(`[\\p{L}\\p{N}-]${DOT}(?:${TLDS.join('|')}|xn--[a-z0-9-]+)(?![\\p{L}\\p{N}])`, 'iu'),
  // An IPv4 address.
  new RegExp(`\\d{1,3}(?:${DOT}\\d{1,3}){3}`, 'u'),
];

/** True when the text could be a name as people write them: no links, no control or format characters. */
export function isPersonName(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const text = value.normalize('NFKC');
  return !REFUSED.some((pattern) => pattern.test(text));
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
