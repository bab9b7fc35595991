import { Controller, DynamicModule, Get, Inject, Injectable, Module, Optional } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TerminusModule, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type Redis from 'ioredis';
import { ApiOperation, ApiReturns } from './openapi/annotations';
import { within } from './within';
import { Public } from './public';
import { REDIS } from './redis';

const HEALTH_OPTIONS = Symbol('HEALTH_OPTIONS');
interface HealthOptions {
  database: boolean;
  redis: boolean;
  /** Facts /ready reports beside its checks, by key (always up): e.g. which implementation a hot path runs on. */
  info?: Record<string, Record<string, string>>;
}

@Injectable()
export class RedisHealthIndicator {
  constructor(
    private readonly indicator: HealthIndicatorService,
    @Optional() @Inject(REDIS) private readonly redis?: Redis,
  ) {}

  async isHealthy(key = 'redis') {
    const check = this.indicator.check(key);
    try {
      if (!this.redis) throw new Error('no redis client');
      const pong = await within(this.redis.ping(), 1500);
      if (!pong.done) return check.down({ message: 'timeout' });
      return pong.value === 'PONG' ? check.up() : check.down({ message: 'unexpected reply' });
    } catch (e) {
      return check.down({ message: (e as Error).message });
    }
  }
}

/** GET /health says the process is alive; GET /ready says its database and Redis answer. Probes carry no token. */
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly redis: RedisHealthIndicator,
    private readonly indicator: HealthIndicatorService,
    @Inject(HEALTH_OPTIONS) private readonly options: HealthOptions,
    @Optional() private readonly db?: TypeOrmHealthIndicator,
  ) {}

  @Get('health')
  @ApiReturns('HealthStatus')
  @ApiOperation('{service}.health', 'Liveness', 'Answers while the process runs; it checks nothing else. For probes.')
  alive() {
    return { status: 'ok' as const };
  }

  @Get('ready')
  @HealthCheck()
  @ApiReturns('ReadyStatus', { failure: { status: 503, description: 'Not ready: the checks, with the ones that failed' } })
  @ApiOperation(
    '{service}.ready',
    'Readiness',
    'Whether the service can serve: its database and Redis answer (each it uses), with the facts it reports beside them. For probes and load balancers.',
  )
  ready() {
    const checks = [];
    if (this.options.database && this.db) checks.push(() => this.db!.pingCheck('database', { timeout: 1500 }));
    if (this.options.redis) checks.push(() => this.redis.isHealthy('redis'));
    for (const [key, details] of Object.entries(this.options.info ?? {})) checks.push(() => this.indicator.check(key).up(details));
    return this.health.check(checks);
  }
}

@Module({})
export class HealthModule {
  static register(options: HealthOptions): DynamicModule {
    return {
      module: HealthModule,
      imports: [TerminusModule.forRoot({ errorLogStyle: 'json', gracefulShutdownTimeoutMs: 0 })],
      controllers: [HealthController],
      providers: [RedisHealthIndicator, { provide: HEALTH_OPTIONS, useValue: options }],
    };
  }
}
