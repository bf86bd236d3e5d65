import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { BaseServiceEnv, BlankAsUnset, ConfigError, DatabaseEnv, EnvNumber, loadEnv, Secret } from './config';

class ExampleEnv extends DatabaseEnv {
  @Secret()
  @IsString()
  SMTP_PASSWORD = 'x';
}

describe('loadEnv', () => {
  it('applies defaults and converts numbers', () => {
    const env = loadEnv(ExampleEnv, { DATABASE_URL: 'postgres://x', PORT: '3101' });
    expect(env.PORT).toBe(3101);
    expect(env.REDIS_URL).toBe('redis://127.0.0.1:6379');
  });

  it('names the bad variable and hides secret values', () => {
    expect(() => loadEnv(ExampleEnv, { DATABASE_URL: 'postgres://x', JWT_SECRET: 'short' })).toThrow(
      /JWT_SECRET=\(hidden\): JWT_SECRET must be at least 16 characters/,
    );
  });

  it('reads the pooling and the read replica as unset unless given, and refuses another pooling', () => {
    const direct = loadEnv(DatabaseEnv, { DATABASE_URL: 'postgres://x', DATABASE_POOLING: '', DATABASE_READ_URL: '' });
    expect([direct.DATABASE_POOLING, direct.DATABASE_READ_URL]).toEqual([undefined, undefined]);
    const pooled = loadEnv(DatabaseEnv, { DATABASE_URL: 'postgres://x', DATABASE_POOLING: 'transaction', DATABASE_READ_URL: 'postgres://r' });
    expect([pooled.DATABASE_POOLING, pooled.DATABASE_READ_URL]).toEqual(['transaction', 'postgres://r']);
    expect(() => loadEnv(DatabaseEnv, { DATABASE_URL: 'postgres://x', DATABASE_POOLING: 'statement' })).toThrow(
      /DATABASE_POOLING="statement": DATABASE_POOLING must be "transaction"/,
    );
  });

  it('refuses a missing required variable', () => {
    expect(() => loadEnv(DatabaseEnv, {})).toThrow(ConfigError);
  });

  it('refuses the development JWT secret in production', () => {
    expect(() => loadEnv(BaseServiceEnv, { NODE_ENV: 'production' })).toThrow(/development default/);
  });
});

describe('production secrets', () => {
  const strong = (seed: string) => `${seed}-0f3a9c7e5b1d2468ace13579bdf02468`;
  const production = { NODE_ENV: 'production', JWT_SECRET: strong('jwt'), INTERNAL_TOKEN: strong('internal') };

  it('accepts long random secrets', () => {
    expect(loadEnv(BaseServiceEnv, production).INTERNAL_TOKEN).toBe(strong('internal'));
  });

  it('has a development default for the internal credential and refuses it in production', () => {
    expect(loadEnv(BaseServiceEnv, {}).INTERNAL_TOKEN.length).toBeGreaterThanOrEqual(16);
    expect(() => loadEnv(BaseServiceEnv, { ...production, INTERNAL_TOKEN: undefined })).toThrow(
      /INTERNAL_TOKEN: the development default must not be used in production/,
    );
  });

  it('refuses an internal credential shorter than 16 characters anywhere', () => {
    expect(() => loadEnv(BaseServiceEnv, { INTERNAL_TOKEN: 'short' })).toThrow(/INTERNAL_TOKEN must be at least 16 characters/);
  });

  it("refuses the compose file's old default JWT secret, which the production check used to accept", () => {
    expect(() => loadEnv(BaseServiceEnv, { ...production, JWT_SECRET: 'compose-only-insecure-jwt-secret-change-me' })).toThrow(
      /JWT_SECRET: the development default/,
    );
  });

  it.each([
    'my-jwt-secret-please-change-me-0123456789',
    'an-insecure-but-long-enough-secret-0123456789',
    'example-secret-0123456789abcdef0123456789',
    'REPLACE_ME-jwt-secret-at-least-32-random-characters',
  ])(
    'refuses a placeholder-looking secret (%s)',
    (value) => {
      expect(() => loadEnv(BaseServiceEnv, { ...production, JWT_SECRET: value })).toThrow(/JWT_SECRET: looks like a placeholder/);
      expect(() => loadEnv(BaseServiceEnv, { ...production, INTERNAL_TOKEN: value })).toThrow(/INTERNAL_TOKEN: looks like a placeholder/);
    },
  );

  it('refuses a secret shorter than 32 characters in production but not in development', () => {
    const short = 'a1b2c3d4e5f6a7b8c9d0'; // 20 characters: fine for development
    expect(loadEnv(BaseServiceEnv, { JWT_SECRET: short }).JWT_SECRET).toBe(short);
    expect(() => loadEnv(BaseServiceEnv, { ...production, JWT_SECRET: short })).toThrow(/JWT_SECRET: must be at least 32 characters/);
  });

  it('never shows the refused value', () => {
    const value = 'please-change-me-0123456789abcdef0123';
    expect(() => loadEnv(BaseServiceEnv, { ...production, INTERNAL_TOKEN: value })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(value) }),
    );
  });
});

describe('env decorators', () => {
  class NumbersEnv extends BaseServiceEnv {
    @EnvNumber()
    @IsInt()
    @Min(1)
    BATCH_SIZE = 50;

    @EnvNumber()
    @IsOptional()
    @IsInt()
    LIMIT?: number;

    @BlankAsUnset()
    @IsOptional()
    @IsString()
    UPSTREAM_URL?: string;
  }

  it('EnvNumber reads a set variable as a number and keeps the default otherwise', () => {
    expect(loadEnv(NumbersEnv, { BATCH_SIZE: '200', LIMIT: '7' })).toMatchObject({ BATCH_SIZE: 200, LIMIT: 7 });
    const unset = loadEnv(NumbersEnv, { BATCH_SIZE: '' });
    expect(unset.BATCH_SIZE).toBe(50);
    expect(unset.LIMIT).toBeUndefined();
  });

  it('EnvNumber leaves the validation to the validators: not a number names the variable', () => {
    expect(() => loadEnv(NumbersEnv, { BATCH_SIZE: 'many' })).toThrow(/BATCH_SIZE=null: .*BATCH_SIZE must be an integer number/);
  });

  it('BlankAsUnset reads a blank value as unset', () => {
    expect(loadEnv(NumbersEnv, { UPSTREAM_URL: '   ' }).UPSTREAM_URL).toBeUndefined();
    expect(loadEnv(NumbersEnv, { UPSTREAM_URL: 'http://x' }).UPSTREAM_URL).toBe('http://x');
  });
});
