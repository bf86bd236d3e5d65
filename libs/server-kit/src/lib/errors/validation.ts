import { BadRequestException, HttpException, ValidationError, ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { ErrorCode } from '@mate/contracts';

function flatten(errors: ValidationError[], parent = ''): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const path = parent ? `${parent}.${e.property}` : e.property;
    if (e.constraints) {
      if (e.constraints.whitelistValidation) out.push(`Unknown field: ${path}`);
      else out.push(...Object.values(e.constraints));
    }
    if (e.children?.length) out.push(...flatten(e.children, path));
  }
  return out;
}

/** Said when converting or checking the input threw instead of answering (a value no rule expected). */
export const UNREADABLE_INPUT_MESSAGE = 'The request contains a value that could not be read';

/**
 * The validation pipe whose failures are always the client's: class-transformer and the
 * validators run only on the request's own values, so anything they throw (validator's isEmail
 * threw URIError on a lone surrogate, a deep value overflowed the stack) is a 400, not a 500.
 */
class InputValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await super.transform(value, metadata);
    } catch (e) {
      if (e instanceof HttpException) throw e;
      throw new BadRequestException({ error: UNREADABLE_INPUT_MESSAGE, code: ErrorCode.ValidationFailed }, { cause: e });
    }
  }
}

/**
 * Input validation at the edge of every service: unknown fields are rejected (not silently
 * dropped), values are converted to their declared types, and the first message becomes `error`.
 */
export function createValidationPipe(): ValidationPipe {
  return new InputValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // One message per field: the first rule it breaks (the type check, declared last, comes first).
    stopAtFirstError: true,
    exceptionFactory: (errors) => {
      const details = flatten(errors);
      return new BadRequestException({ error: details[0] ?? 'Invalid request', code: ErrorCode.ValidationFailed, details });
    },
  });
}
