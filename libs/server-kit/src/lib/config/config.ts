import 'reflect-metadata';
import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';

/** Marks a variable whose value must never be printed. */
const SECRET_KEYS = new Set<string>();
export function Secret(): PropertyDecorator {
  return (_target, key) => {
    SECRET_KEYS.add(String(key));
  };
}

/**
 * A variable read as a number: validate it with `@IsInt()`, `@Min()`... as usual. Unset or blank
 * stays unset (an optional variable), so the field's default or `@IsOptional()` decides.
 */
export function EnvNumber(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value)));
}

/** A variable that may be set to blank (compose passes `X=` for "not set"): blank reads as unset. */
export function BlankAsUnset(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() === '' ? undefined : value));
}

/**
 * Settings every service reads. A service extends this class with its own variables; the whole
 * set is validated once at start-up and a bad or missing variable stops the process with a clear
 * message (never a stack trace, never a secret's value).
 */
export class BaseServiceEnv {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @EnvNumber()
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @IsString()
  REDIS_URL = 'redis://127.0.0.1:6379';

  /**
   * A Redis Cluster's seed nodes, `host:port,host:port,...`: when set, every Redis connection is an
   * ioredis Cluster (credentials, if any, from REDIS_URL) and each queue's keys carry a hash tag
   * (ADR 0032). Unset or blank: the one server of REDIS_URL.
   */
  @BlankAsUnset()
  @IsOptional()
  @IsString()
  @Matches(/^\s*[^\s,:]+:\d{1,5}\s*(,\s*[^\s,:]+:\d{1,5}\s*)*$/, {
    message: 'REDIS_CLUSTER_NODES must be comma-separated host:port seed nodes',
  })
  REDIS_CLUSTER_NODES?: string;

  /** Prefix of every Redis key and queue of this deployment (lets test suites share one Redis). */
  @IsString()
  @MinLength(1)
  KEY_PREFIX = 'mate';

  @Secret()
  @IsString()
  @MinLength(16, { message: 'JWT_SECRET must be at least 16 characters' })
  JWT_SECRET = 'dev-only-jwt-secret-change-me';

  /**
   * The credential the gateway adds to every request it forwards (header `INTERNAL_TOKEN_HEADER`).
   * A service believes `X-Forwarded-*` and serves `/internal/**` only when it matches, so a caller
   * that reaches a service directly cannot choose the address per-IP limits count (ADR 0009).
   * Every process of one deployment shares the value.
   */
  @Secret()
  @IsString()
  @MinLength(16, { message: 'INTERNAL_TOKEN must be at least 16 characters' })
  INTERNAL_TOKEN = 'dev-only-internal-token-change-me';

  /** 'off' in one-off commands and tests that relay by hand. */
  @IsIn(['on', 'off'])
  OUTBOX_RELAY: 'on' | 'off' = 'on';

  @EnvNumber()
  @IsInt()
  @Min(10)
  OUTBOX_POLL_MS = 500;

  /** Published outbox rows and processed_event rows older than this are pruned. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  EVENT_RETENTION_DAYS = 7;

  /** How often the pruning job runs (once per tick for all replicas of a service). */
  @EnvNumber()
  @IsInt()
  @Min(100)
  EVENT_PRUNE_EVERY_MS = 3600 * 1000;

  /** 'off' stops this replica from consuming events and jobs (API-only replicas, one-off commands). */
  @IsIn(['on', 'off'])
  WORKERS: 'on' | 'off' = 'on';

  /**
   * Which hops' X-Forwarded-For to believe (Express "trust proxy"): "false", a hop count, or a
   * list of addresses/ranges. Services sit behind the gateway on private networks; the gateway
   * itself trusts nothing unless an ingress stands in front of it (then "1").
   */
  @IsString()
  TRUST_PROXY = 'loopback, linklocal, uniquelocal';

  /** Bind address; 0.0.0.0 in containers. */
  @IsString()
  HOST = '127.0.0.1';

  /**
   * When set, `GET /metrics` asks for it as a bearer token (a port published on a single host).
   * In a cluster the scraper reaches the pod port and the Ingress never routes /metrics.
   */
  @Secret()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'METRICS_TOKEN must be at least 16 characters' })
  METRICS_TOKEN?: string;
}

export class DatabaseEnv extends BaseServiceEnv {
  @Secret()
  @IsString()
  DATABASE_URL!: string;

  /**
   * `transaction` when DATABASE_URL is PgBouncer in transaction pooling: no session state is relied
   * on (no named prepared statements; docs/adr/0033). Unset: a direct connection, as before.
   */
  @BlankAsUnset()
  @IsOptional()
  @IsIn(['transaction'], { message: 'DATABASE_POOLING must be "transaction" (PgBouncer in transaction pooling) or unset' })
  DATABASE_POOLING?: 'transaction';

  /**
   * A streaming replica (directly or through its own PgBouncer, pooled as DATABASE_POOLING says)
   * for the heaviest reads, a member's own writes still read from the primary (docs/adr/0033).
   * Unset: every read on DATABASE_URL.
   */
  @Secret()
  @BlankAsUnset()
  @IsOptional()
  @IsString()
  DATABASE_READ_URL?: string;
}

export class ConfigError extends Error {}

export function loadEnv<T extends object>(cls: new () => T, source: NodeJS.ProcessEnv = process.env): T {
  const defaults = new cls() as Record<string, unknown>;
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(defaults).concat(Object.keys(source))) {
    if (source[key] !== undefined && source[key] !== '') raw[key] = source[key];
  }
  const env = plainToInstance(cls, { ...defaults, ...raw });
  const errors = validateSync(env as object, { whitelist: true });
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const shown = SECRET_KEYS.has(e.property) ? '(hidden)' : JSON.stringify(e.value);
      return `  ${e.property}=${shown}: ${Object.values(e.constraints ?? {}).join('; ')}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if ((env as unknown as BaseServiceEnv).NODE_ENV === 'production') {
    const problems = PRODUCTION_SECRETS.flatMap((key) => {
      const problem = productionSecretProblem((env as unknown as BaseServiceEnv)[key]);
      return problem ? [`  ${key}: ${problem}`] : [];
    });
    if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  return env;
}

/** Secrets a production process must be given, never left at a default or a placeholder. */
const PRODUCTION_SECRETS = ['JWT_SECRET', 'INTERNAL_TOKEN'] as const;
const PRODUCTION_SECRET_MIN_LENGTH = 32;
/** Defaults shipped in this repository (the kit's and docker/compose.yml's before issue 7). */
const KNOWN_DEFAULT_SECRETS = new Set([
  new BaseServiceEnv().JWT_SECRET,
  new BaseServiceEnv().INTERNAL_TOKEN,
  'compose-only-insecure-jwt-secret-change-me',
]);
const PLACEHOLDER_WORDS = /change[-_]?me|replace[-_]?me|insecure|example/i;

/** Why a secret's value is unfit for production, or undefined when it is fit. Never shows the value. */
export function productionSecretProblem(value: string): string | undefined {
  if (KNOWN_DEFAULT_SECRETS.has(value)) return 'the development default must not be used in production';
  if (PLACEHOLDER_WORDS.test(value)) {
    return 'looks like a placeholder ("change-me", "replace-me", "insecure", "example"): set a random value (openssl rand -hex 32)';
  }
  if (value.length < PRODUCTION_SECRET_MIN_LENGTH) {
    return `must be at least ${PRODUCTION_SECRET_MIN_LENGTH} characters in production (e.g. openssl rand -hex 32)`;
  }
  return undefined;
}

/** Injection token of the validated env object. */
export const SERVICE_ENV = Symbol('SERVICE_ENV');
