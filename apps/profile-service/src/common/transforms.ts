/** Input clean-up shared by the request bodies (class-transformer `@Transform` functions). */

type TransformArgs = { value: unknown };

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text as PostgreSQL can store it: NUL characters dropped (text columns refuse them) and lone
 * UTF-16 surrogates replaced (they are not valid UTF-8); then trimmed.
 */
export function cleanText(value: string): string {
  return value.replaceAll(String.fromCharCode(0), '').replace(LONE_SURROGATE, '\uFFFD').trim();
}

/** Trims text; leaves anything else for the validators to refuse. */
export const trim = ({ value }: TransformArgs) => (typeof value === 'string' ? cleanText(value) : value);

/** Trims text, and reads empty text as "clear this field" (null), as the profile form sends it. */
export const trimOrNull = ({ value }: TransformArgs) => {
  if (typeof value !== 'string') return value;
  const trimmed = cleanText(value);
  return trimmed === '' ? null : trimmed;
};

/**
 * A list of words (interests): each trimmed, empty ones dropped, duplicates dropped whatever their
 * case (the first spelling is kept). Items that are not text stay, for the validators to refuse.
 */
export function cleanWordList(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const item of value) {
    if (typeof item !== 'string') {
      out.push(item);
      continue;
    }
    const word = cleanText(item);
    if (!word || seen.has(word.toLowerCase())) continue;
    seen.add(word.toLowerCase());
    out.push(word);
  }
  return out;
}
export const wordList = ({ value }: TransformArgs) => cleanWordList(value);

/** A list of option values: duplicates dropped (exact match; values are fixed strings). */
export const optionList = ({ value }: TransformArgs) =>
  Array.isArray(value) ? value.filter((item, i) => value.indexOf(item) === i) : value;
