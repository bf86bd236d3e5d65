import { Transform } from 'class-transformer';

/** Digits a query integer may have unless the field says fewer: every such number is exact. */
export const QUERY_INTEGER_MAX_DIGITS = 10;

/**
 * A whole number read from the query string, where every value arrives as text: a value of
 * digits only (at most `maxDigits`) becomes that number; anything else (a sign, a decimal point,
 * a space, more digits, a repeated key's array) stays as sent and fails the field's own `IsInt`,
 * with the field's own message. The range is the field's `Min` and `Max`.
 *
 * ```ts
 * @IsOptional()
 * @QueryInteger()
 * @Min(1, { message: LIMIT_MESSAGE })
 * @Max(MAX_LIMIT, { message: LIMIT_MESSAGE })
 * @IsInt({ message: LIMIT_MESSAGE })
 * limit: number = PAGE_SIZE;
 * ```
 */
export function QueryInteger({
  maxDigits = QUERY_INTEGER_MAX_DIGITS,
}: { maxDigits?: number } = {}): PropertyDecorator {
  const digits = new RegExp(`^\\d{1,${maxDigits}}$`);
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && digits.test(value) ? Number(value) : value,
  );
}
