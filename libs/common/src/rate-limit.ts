import { CallHandler, DynamicModule, ExecutionContext, Global, Inject, Injectable, Module, NestInterceptor, SetMetadata } from '@nestjs/common';
import { APP_INTERCEPTOR, Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type Redis from 'ioredis';
import { Matches } from 'class-validator';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from './errors';
import { RATE_LIMIT_METADATA } from './public';
import { REDIS } from './redis';

/** `<requests>/<seconds>`, e.g. `10/3600`: the format of every rate-limit variable. */
export const RATE_FORMAT = /^\d{1,6}\/\d{1,7}$/;

/** Env rule for a rate-limit variable. */
export const RateRule = (name: string) => Matches(RATE_FORMAT, { message: `${name} must be <requests>/<seconds>, e.g. 10/3600` });

export interface Rate {
  points: number;
  seconds: number;
}

export function parseRate(value: string): Rate {
  if (!RATE_FORMAT.test(value)) throw new Error(`not a rate: ${value}`);
  const [points, seconds] = value.split('/').map(Number);
  return { points, seconds };
}

/**
 * A named limit shared by every replica through Redis. If Redis cannot be reached, each replica counts in memory
 * instead of refusing every request (the insurance limiter).
 */
export function createRateLimiter(redis: Redis, keyPrefix: string, rate: Rate): RateLimiterAbstract {
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points: rate.points,
    duration: rate.seconds,
    insuranceLimiter: new RateLimiterMemory({ points: rate.points, duration: rate.seconds }),
  });
}

/** Seconds until a refused caller may try again (at least 1, so `Retry-After: 0` never tells a client to hammer). */
export const retryAfterSeconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

/** Per-user and per-address limits of one action, as `<requests>/<seconds>`; either may be left out. */
export interface RateLimitRule {
  user?: string;
  ip?: string;
}

export interface RateLimitOptions {
  /** The service's name, part of every key so two services' actions never share a count. */
  service: string;
  rules: Record<string, RateLimitRule>;
}

const RATE_LIMIT = RATE_LIMIT_METADATA;

/**
 * The route counts against the named rule of RateLimitModule: per signed-in user and per client address (the
 * address comes from Express's `req.ip`, which honours X-Forwarded-For only from TRUSTED_PROXY). Over either
 * limit the request is refused with 429, code `rate_limited` and `Retry-After`, before the handler runs.
 */
export const RateLimit = (rule: string) => SetMetadata(RATE_LIMIT, rule);

export class RateLimitExceeded extends AppError {
  constructor(readonly retryAfter: number) {
    super(429, 'rate_limited', `Too many requests. Please try again in ${describeWait(retryAfter)}.`, { retryAfter });
  }
}

function describeWait(seconds: number) {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** Counts calls against named limits; used by the @RateLimit interceptor and by services that limit by other keys. */
@Injectable()
export class RateLimiter {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(RATE_LIMIT) private readonly options: RateLimitOptions,
  ) {
    for (const [name, rule] of Object.entries(options.rules)) {
      if (rule.user) this.limiters.set(`${name}:user`, createRateLimiter(redis, `rl:${options.service}:${name}:user`, parseRate(rule.user)));
      if (rule.ip) this.limiters.set(`${name}:ip`, createRateLimiter(redis, `rl:${options.service}:${name}:ip`, parseRate(rule.ip)));
    }
  }

  /** Counts one call by this user and this address; throws RateLimitExceeded when either is over its limit. */
  async consume(rule: string, caller: { userId?: string | null; ip?: string | null }) {
    if (!(rule in this.options.rules)) throw new Error(`unknown rate-limit rule ${rule}`);
    const checks: [RateLimiterAbstract | undefined, string | null | undefined][] = [
      [this.limiters.get(`${rule}:user`), caller.userId],
      [this.limiters.get(`${rule}:ip`), caller.ip],
    ];
    let wait = 0;
    for (const [limiter, key] of checks) {
      if (!limiter || !key) continue;
      try {
        await limiter.consume(key);
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) throw e;
        wait = Math.max(wait, retryAfterSeconds(e));
      }
    }
    if (wait > 0) throw new RateLimitExceeded(wait);
  }
}

@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
  ) {}

  async intercept(ctx: ExecutionContext, next: CallHandler) {
    const rule = ctx.getType() === 'http' ? this.reflector.get<string | undefined>(RATE_LIMIT, ctx.getHandler()) : undefined;
    if (rule) {
      const req = ctx.switchToHttp().getRequest<Request & { user?: { id: string } }>();
      try {
        await this.limiter.consume(rule, { userId: req.user?.id, ip: req.ip ?? req.socket.remoteAddress });
      } catch (e) {
        if (e instanceof RateLimitExceeded) ctx.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(e.retryAfter));
        throw e;
      }
    }
    return next.handle();
  }
}

/**
 * Per-user and per-address limits for a service's routes, kept in Redis (RedisModule must be imported). Interceptors
 * run after guards, so the signed-in user is known when the limit is counted.
 */
@Global()
@Module({})
export class RateLimitModule {
  static forRoot(options: RateLimitOptions): DynamicModule {
    for (const [name, rule] of Object.entries(options.rules)) {
      for (const value of [rule.user, rule.ip]) if (value !== undefined) parseRate(value); // a typo fails at boot
      if (!rule.user && !rule.ip) throw new Error(`rate-limit rule ${name} limits nothing`);
    }
    return {
      module: RateLimitModule,
      providers: [{ provide: RATE_LIMIT, useValue: options }, RateLimiter, { provide: APP_INTERCEPTOR, useClass: RateLimitInterceptor }],
      exports: [RateLimiter],
    };
  }
}
