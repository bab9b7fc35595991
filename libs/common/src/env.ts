import 'reflect-metadata';
import { plainToInstance, Transform, Type } from 'class-transformer';
import { REDIS_URL_PATTERN } from './redis-url';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, validateSync, ValidationError } from 'class-validator';

/** Thrown when the environment does not describe a runnable service; its message is one line. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Variables every service reads. A service's own env class extends this one. */
export class BaseEnv {
  @IsIn(['development', 'production', 'test'], { message: 'NODE_ENV must be one of development, production, test' })
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL, e.g. postgres://postgres@127.0.0.1:5432/beacon' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/beacon';

  @Matches(REDIS_URL_PATTERN, {
    message:
      'REDIS_URL must be a redis:// URL, e.g. redis://127.0.0.1:6379, or a sentinel setup, redis+sentinel://[password@]host:26379[,host:26379]/<primary name>',
  })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /** Prefix for every Redis key (queues, rate limits, socket adapter), so environments can share one Redis. */
  @Matches(/^[A-Za-z0-9:_-]{1,64}$/, { message: 'REDIS_PREFIX must be 1 to 64 letters, digits, colons, dashes or underscores' })
  REDIS_PREFIX = 'beacon';

  @IsIn(LOG_LEVELS as unknown as string[], { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

  /** Where the edge lives; used to build links in mails and notifications. */
  @Matches(/^https?:\/\/\S+$/, { message: 'PUBLIC_URL must be an http(s) URL, e.g. http://localhost:8080' })
  PUBLIC_URL = 'http://localhost:8080';

  /** The identity service's JWKS, used by every other service to verify access tokens. */
  @Matches(/^https?:\/\/\S+$/, { message: 'JWKS_URL must be an http(s) URL' })
  JWKS_URL = 'http://127.0.0.1:3001/auth/v1/.well-known/jwks.json';

  /**
   * Seconds the last known revocation state (the revocation stream and the last reads) answers for a Redis that does
   * not, counted from the outage's start; then admin routes and admin tokens are refused (503). 0: refused at once.
   * Short, since a revoked admin heard of by no replica keeps access that long.
   */
  @Rules(...intRule('REVOCATION_STALENESS_SECONDS', 0, 300))
  REVOCATION_STALENESS_SECONDS: number = 60;

  /** Seconds a service may spend finishing in-flight work after SIGTERM. */
  @Rules(...intRule('SHUTDOWN_GRACE_SECONDS', 1, 600))
  SHUTDOWN_GRACE_SECONDS: number = 25;

  @IsOptional()
  @IsString()
  TRUSTED_PROXY?: string;

  /** OTLP/HTTP collector (e.g. http://otel-collector:4318): traces are exported to <it>/v1/traces; unset, none are made. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s?#]+$/, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL without query, e.g. http://otel-collector:4318' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
}

export function portRule(name: string) {
  return [
    Type(() => Number),
    IsInt({ message: `${name} must be a port number between 1 and 65535` }),
    Min(0, { message: `${name} must be a port number between 1 and 65535` }),
    Max(65535, { message: `${name} must be a port number between 1 and 65535` }),
  ];
}

/** Applies several property decorators at once (class-validator has no built-in composition). */
export function Rules(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((d) => d(target, key));
}

/** Variables whose value must never reach a log, even when it is wrong (a malformed key is still mostly the key). */
const SECRET_NAME = /KEY|SECRET|PASSWORD|TOKEN|PEM|CREDENTIAL/;

/** What to say about a rejected value: the value itself, unless it is a secret or a URL's password. */
function describeValue(name: string, value: unknown): string {
  if (value === undefined) return 'it is missing';
  const text = String(value);
  if (SECRET_NAME.test(name)) return `got a value of ${text.length} characters, not shown`;
  return `got '${text.replace(/(\/\/[^/:@\s]*:)[^@/\s]*@/, '$1***@').slice(0, 80)}'`;
}

function firstMessage(errors: ValidationError[], raw: Record<string, unknown>): string {
  for (const error of errors) {
    const messages = Object.values(error.constraints ?? {});
    if (messages.length) {
      const value = error.property in raw ? raw[error.property] : error.value;
      const got = describeValue(error.property, value);
      return `${messages[0]} (${got})`;
    }
    if (error.children?.length) return firstMessage(error.children, {});
  }
  return 'invalid configuration';
}

/**
 * Reads the environment into a typed, validated object. Empty strings count as unset so that
 * `FOO=` in a shell falls back to the default rather than failing a rule.
 */
export function loadEnv<T extends object>(cls: new () => T, source: Record<string, string | undefined> = process.env): T {
  const defaults = new cls() as Record<string, unknown>;
  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const merged = { ...defaults, ...pick(raw, Object.keys(defaults).concat(declaredKeys(cls))) };
  const env = plainToInstance(cls, merged, { enableImplicitConversion: true, exposeDefaultValues: true });
  const errors = validateSync(env as object, { whitelist: false, forbidUnknownValues: false });
  if (errors.length) throw new ConfigError(`Invalid configuration: ${firstMessage(errors, raw)}`);
  return env;
}

function declaredKeys(cls: new () => object): string[] {
  // Optional variables have no default, so they are not own keys of a fresh instance; class-validator's
  // metadata storage knows them.
  const { getMetadataStorage } = require('class-validator');
  const metas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false) as { propertyName: string }[];
  return metas.map((m) => m.propertyName);
}

function pick(obj: Record<string, unknown>, keys: string[]) {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (k in obj) out[k] = obj[k];
  return out;
}

/** A whole-number variable in [min, max], converted from its string form. */
export function intRule(name: string, min: number, max: number) {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return [Type(() => Number), IsInt({ message }), Min(min, { message }), Max(max, { message })];
}

/** A boolean variable: true/false/1/0/yes/no. */
export function boolRule(name: string): PropertyDecorator[] {
  return [
    // read the raw string: implicit conversion has already turned any non-empty string into `true`
    Transform(({ obj, key, value }) => {
      const raw = obj[key];
      if (typeof raw !== 'string') return value;
      return ({ true: true, '1': true, yes: true, false: false, '0': false, no: false } as Record<string, boolean>)[raw.toLowerCase()] ?? raw;
    }),
    IsBoolean({ message: `${name} must be true or false` }),
  ];
}

/** Parses a comma-separated list variable. */
export function csv(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
