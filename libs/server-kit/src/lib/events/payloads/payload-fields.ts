import { Transform } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsString,
  IsUUID,
  Min,
  ValidateIf,
  registerDecorator,
  type ValidationOptions,
} from 'class-validator';

/*
 * The field rules of the domain event payload classes (./*.payloads.ts), one decorator per kind
 * of field instead of the same rules on every field. Each normalises before it validates
 * (class-transformer runs first), so a handler gets the one spelling of a value: ids lower case,
 * a pair ascending.
 */

const lowerCase = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);

/** Applies every decorator given, in order (what a field kind is made of). */
function fieldOf(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}

/** A required field that may be null (`T | null` in the contracts): only a non-null value is checked. */
export const Nullable = () => ValidateIf((_object, value) => value !== null);

/** A field an older envelope lacks (`field?:` in the contracts): absent or null is not checked. */
export const Optional = () => ValidateIf((_object, value) => value !== undefined && value !== null);

/** A member's (or any entity's) id: a UUID, lower case. */
export const Id = () =>
  fieldOf(
    Transform(({ value }) => lowerCase(value)),
    IsUUID('all'),
  );

/** A list of ids, each a UUID, lower case. */
export const IdList = () =>
  fieldOf(
    Transform(({ value }) => (Array.isArray(value) ? value.map(lowerCase) : value)),
    IsArray(),
    IsUUID('all', { each: true }),
  );

/** A moment as the producers write it (an ISO 8601 string): anything `new Date` reads. */
export function Time(options?: ValidationOptions): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'isTime',
      target: target.constructor,
      propertyName: String(key),
      options: { message: `${String(key)} must be a time`, ...options },
      validator: {
        validate: (value: unknown) => typeof value === 'string' && !Number.isNaN(new Date(value).getTime()),
      },
    });
}

/** A UTC day, `YYYY-MM-DD`, that exists. */
export function Day(): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'isDay',
      target: target.constructor,
      propertyName: String(key),
      options: { message: `${String(key)} must be a day (YYYY-MM-DD)` },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' &&
          /^\d{4}-\d{2}-\d{2}$/.test(value) &&
          !Number.isNaN(new Date(`${value}T00:00:00Z`).getTime()) &&
          new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value,
      },
    });
}

export const Text = () => IsString();
export const TextList = () => fieldOf(IsArray(), IsString({ each: true }));
export const Flag = () => IsBoolean();
/** A finite number (NaN and infinities are not). */
export const Amount = () => IsNumber({ allowNaN: false, allowInfinity: false });
/** A whole number, 0 or more (a sequence number, a length, a version). */
export const Count = () => fieldOf(IsInt(), Min(0));
export const OneOf = (values: readonly unknown[]) => IsIn([...values]);

/**
 * A value of a list a newer producer may extend (a lifestyle answer, a report reason): a value this
 * build does not know reads as `fallback` rather than making the whole event unreadable.
 */
export const KnownOr = <T>(values: readonly T[], fallback: T | null) =>
  Transform(({ value }) =>
    value === undefined || (values as readonly unknown[]).includes(value) ? value : fallback,
  );
