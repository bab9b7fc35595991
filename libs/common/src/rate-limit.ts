import { CallHandler, DynamicModule, ExecutionContext, Global, HttpException, Inject, Injectable, Module, NestInterceptor, SetMetadata } from '@nestjs/common';
import { APP_INTERCEPTOR, Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type Redis from 'ioredis';
import { Matches } from 'class-validator';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { catchError, defer } from 'rxjs';
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

/** Per-user and per-address limits, as `<requests>/<seconds>`; either may be left out. */
export interface RateLimitPair {
  user?: string;
  ip?: string;
}

/** The limits of one action. */
export interface RateLimitRule extends RateLimitPair {
  /**
   * With this, `user` and `ip` count only the calls the route accepted: a call it refuses with a 4xx (bad input) is
   * given back and counted here instead, against a ceiling of its own. Someone who fixes their input is not locked out
   * by their mistakes, and someone who keeps sending bad input is still stopped.
   */
  refused?: RateLimitPair;
}

/** Who a call is counted against. */
export interface RateLimitCaller {
  userId?: string | null;
  ip?: string | null;
}

/** A 4xx the route (its pipes or handler) answered: the caller's mistake, not an accepted call. */
const isRefusal = (e: unknown) => e instanceof HttpException && e.getStatus() >= 400 && e.getStatus() < 500;

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
      this.addLimiters(name, rule);
      if (rule.refused) this.addLimiters(`${name}:refused`, rule.refused);
    }
  }

  private addLimiters(name: string, pair: RateLimitPair) {
    for (const by of ['user', 'ip'] as const) {
      const rate = pair[by];
      if (rate) this.limiters.set(`${name}:${by}`, createRateLimiter(this.redis, `rl:${this.options.service}:${name}:${by}`, parseRate(rate)));
    }
  }

  /** The limiters of `name` (a rule, or `<rule>:refused`) with the caller's key for each. */
  private checks(name: string, caller: RateLimitCaller): [RateLimiterAbstract, string][] {
    const pairs: [RateLimiterAbstract | undefined, string | null | undefined][] = [
      [this.limiters.get(`${name}:user`), caller.userId],
      [this.limiters.get(`${name}:ip`), caller.ip],
    ];
    return pairs.filter((p): p is [RateLimiterAbstract, string] => !!p[0] && !!p[1]);
  }

  private rule(name: string): RateLimitRule {
    const rule = this.options.rules[name];
    if (!rule) throw new Error(`unknown rate-limit rule ${name}`);
    return rule;
  }

  /**
   * Counts one call by this user and this address; throws RateLimitExceeded when either is over its limit, or, for a
   * rule with a `refused` ceiling, when the caller's refused calls have reached it.
   */
  async consume(rule: string, caller: RateLimitCaller) {
    let wait = this.rule(rule).refused ? await this.refusalWait(rule, caller) : 0;
    if (wait === 0) {
      for (const [limiter, key] of this.checks(rule, caller)) {
        try {
          await limiter.consume(key);
        } catch (e) {
          if (!(e instanceof RateLimiterRes)) throw e;
          wait = Math.max(wait, retryAfterSeconds(e));
        }
      }
    }
    if (wait > 0) throw new RateLimitExceeded(wait);
  }

  /** Seconds until the caller's refused calls are under the rule's `refused` ceiling again; 0 when they are. */
  private async refusalWait(rule: string, caller: RateLimitCaller) {
    let wait = 0;
    for (const [limiter, key] of this.checks(`${rule}:refused`, caller)) {
      const used = await limiter.get(key);
      if (used && used.consumedPoints >= limiter.points) wait = Math.max(wait, retryAfterSeconds(used));
    }
    return wait;
  }

  /**
   * The call consume() counted was refused (4xx): for a rule with a `refused` ceiling it is given back to the rule's
   * limits and counted against the ceiling instead. Other rules count every call, and this does nothing.
   */
  async refused(rule: string, caller: RateLimitCaller) {
    if (!this.rule(rule).refused) return;
    for (const [limiter, key] of this.checks(rule, caller)) await limiter.reward(key, 1);
    for (const [limiter, key] of this.checks(`${rule}:refused`, caller)) {
      // over the ceiling already: the next call is refused by consume(), nothing to do here
      await limiter.consume(key).catch((e: unknown) => {
        if (!(e instanceof RateLimiterRes)) throw e;
      });
    }
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
    if (!rule) return next.handle();
    const req = ctx.switchToHttp().getRequest<Request & { user?: { id: string } }>();
    const caller: RateLimitCaller = { userId: req.user?.id, ip: req.ip ?? req.socket.remoteAddress };
    try {
      await this.limiter.consume(rule, caller);
    } catch (e) {
      if (e instanceof RateLimitExceeded) ctx.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(e.retryAfter));
      throw e;
    }
    // The validation pipe runs inside next.handle(), so a refused body is seen here as well as a handler's 4xx.
    return next.handle().pipe(
      catchError((e: unknown) =>
        defer(async () => {
          if (isRefusal(e)) await this.limiter.refused(rule, caller);
          throw e;
        }),
      ),
    );
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
      for (const value of [rule.user, rule.ip, rule.refused?.user, rule.refused?.ip]) if (value !== undefined) parseRate(value); // a typo fails at boot
      if (!rule.user && !rule.ip) throw new Error(`rate-limit rule ${name} limits nothing`);
      if (rule.refused && !rule.refused.user && !rule.refused.ip) throw new Error(`rate-limit rule ${name} has a refusal ceiling that limits nothing`);
    }
    return {
      module: RateLimitModule,
      providers: [{ provide: RATE_LIMIT, useValue: options }, RateLimiter, { provide: APP_INTERCEPTOR, useClass: RateLimitInterceptor }],
      exports: [RateLimiter],
    };
  }
}
