import { IsString } from 'class-validator';
import { BaseServiceEnv, ConfigError, DatabaseEnv, loadEnv, Secret } from './config';

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

  it('refuses a missing required variable', () => {
    expect(() => loadEnv(DatabaseEnv, {})).toThrow(ConfigError);
  });

  it('refuses the development JWT secret in production', () => {
    expect(() => loadEnv(BaseServiceEnv, { NODE_ENV: 'production' })).toThrow(/development default/);
  });
});
