import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';
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

/**
 * Input validation at the edge of every service: unknown fields are rejected (not silently
 * dropped), values are converted to their declared types, and the first message becomes `error`.
 */
export function createValidationPipe() {
  return new ValidationPipe({
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
