import 'reflect-metadata';
import type { IncomingMessage } from 'node:http';
import { DynamicModule, INestApplication, RequestMethod, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { type ApiResponses, BODY_LIMITS } from '@beacon/contracts';
import { BaseEnv, ConfigError, loadEnv } from './env';
import { AllExceptionsFilter, createValidationPipe } from './errors';
import { serveServiceDocument } from './openapi/serve';
import { RejectNulGuard, RejectNulPipe } from './text-safety';
import { flushTracing, httpMetrics, metricsEndpoint, propagateRequestContext, requestContext, startMetrics, startTracing } from './observability';

export interface ServiceDefinition<E extends BaseEnv> {
  name: string;
  envClass: new () => E;
  /** Builds the root module from the validated env. */
  module: (env: E) => DynamicModule | Type<unknown>;
  /** The HTTP port variable's value. */
  port: (env: E) => number;
  /** Route prefix the edge forwards unchanged, e.g. 'api/alerts' or 'auth/v1'. Health routes stay at the root. */
  prefix?: string;
  /** What the validation does with body and query fields no DTO declares (default: refuse them with 400). */
  unknownFields?: 'refuse' | 'ignore';
  /** The body of the service's errors in its OpenAPI document (default ApiErrorBody). */
  openApiErrorType?: keyof ApiResponses;
  /**
   * How a request's id reaches the work it causes (see propagateRequestContext): 'async' (the default) through every
   * await; 'explicit' only where the code names it, for a process whose throughput the async hooks would cost.
   */
  requestContext?: 'async' | 'explicit';
  /**
   * Paths (with the prefix, e.g. '/api/alerts/providers/') whose JSON and form bodies are also kept as they came, in
   * `req.rawBody` (a Buffer): for routes that check a signature over the exact bytes (provider webhooks). Other
   * requests keep only the parsed body.
   */
  rawBodyUnder?: string[];
  /** Hook to configure the app (filters, body limits, adapters) before it listens. */
  configure?: (app: NestExpressApplication, env: E) => void | Promise<void>;
}

/** Applies what every Beacon HTTP service shares: prefix, validation, error shape, shutdown hooks. */
export async function createServiceApp<E extends BaseEnv>(def: ServiceDefinition<E>, env: E, options: { logger?: boolean } = {}) {
  startMetrics(def.name);
  startTracing(def.name, env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const app = await NestFactory.create<NestExpressApplication>(def.module(env), {
    bufferLogs: true,
    forceCloseConnections: false,
    logger: options.logger === false ? false : undefined,
  });
  if (options.logger !== false) app.useLogger(app.get(Logger));
  if (def.prefix) {
    app.setGlobalPrefix(def.prefix, {
      exclude: [
        { path: 'health', method: RequestMethod.GET },
        { path: 'ready', method: RequestMethod.GET },
      ],
    });
  }
  app.set('trust proxy', env.TRUSTED_PROXY ? env.TRUSTED_PROXY.split(',').map((s) => s.trim()) : false);
  app.disable('x-powered-by');
  // GET /metrics at the root, like /health: the edge never routes it (see the README's Observability section)
  app.use(httpMetrics, metricsEndpoint);
  // the same limit the edge enforces before forwarding (one constant), for every body type a service parses itself
  const keepRaw = rawBodyKeeper(def.rawBodyUnder);
  app.useBodyParser('json', { limit: BODY_LIMITS.jsonBytes, ...keepRaw });
  app.useBodyParser('urlencoded', { limit: BODY_LIMITS.jsonBytes, extended: true, ...keepRaw });
  // after the body parsers: their stream callbacks would lose the request's context
  app.use(requestContext);
  app.useGlobalGuards(new RejectNulGuard());
  app.useGlobalPipes(new RejectNulPipe(), createValidationPipe({ unknownFields: def.unknownFields }));
  app.useGlobalFilters(new AllExceptionsFilter());
  await def.configure?.(app, env);
  // its part of the API document, at its root like /health; the edge merges them at /api/docs
  serveServiceDocument(app, { name: def.name, prefix: def.prefix, errorType: def.openApiErrorType });
  return app;
}

/** The body parsers' `verify` hook that keeps the raw body of requests under `paths` (none: no hook). */
function rawBodyKeeper(paths: string[] | undefined): { verify?: (req: IncomingMessage & { rawBody?: Buffer }, res: unknown, body: Buffer) => void } {
  if (!paths?.length) return {};
  return {
    verify: (req, _res, body) => {
      if (paths.some((p) => req.url?.startsWith(p))) req.rawBody = body;
    },
  };
}

/**
 * The exit code of a process that refused its configuration (sysexits' EX_CONFIG). It differs from a crash's 1
 * so a supervisor knows restarting cannot help: the same environment would be refused again.
 */
export const CONFIG_ERROR_EXIT_CODE = 78;

/**
 * Starts a service from process.env. A bad configuration prints one line and exits CONFIG_ERROR_EXIT_CODE;
 * SIGTERM stops taking requests, lets in-flight work finish (bounded by SHUTDOWN_GRACE_SECONDS) and closes
 * connections.
 */
export async function runService<E extends BaseEnv>(def: ServiceDefinition<E>): Promise<INestApplication | undefined> {
  let env: E;
  try {
    env = loadEnv(def.envClass);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${def.name}: ${e.message}\n`);
      process.exit(CONFIG_ERROR_EXIT_CODE);
    }
    throw e;
  }
  propagateRequestContext(def.requestContext !== 'explicit');
  try {
    const app = await createServiceApp(def, env);
    await app.listen(def.port(env), process.env.HOST ?? '127.0.0.1');
    const logger = app.get(Logger);
    logger.log(`${def.name} listening on ${await app.getUrl()}`);
    const stop = (signal: string) => {
      logger.log(`${def.name} received ${signal}: finishing in-flight work`);
      // A hung shutdown must not outlive the orchestrator's grace period.
      setTimeout(() => {
        process.stderr.write(`${def.name}: shutdown took longer than ${env.SHUTDOWN_GRACE_SECONDS} s; exiting\n`);
        process.exit(1);
      }, env.SHUTDOWN_GRACE_SECONDS * 1000).unref();
      // close() stops the HTTP server taking new requests, waits for open ones, then runs every module's
      // shutdown hooks (queue workers finish their current job, pools and Redis clients close).
      app
        .close()
        .then(() => flushTracing())
        .then(
          () => process.exit(0),
          (e) => {
            process.stderr.write(`${def.name}: error during shutdown: ${(e as Error).message}\n`);
            process.exit(1);
          },
        );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
    return app;
  } catch (e) {
    const err = e as Error & { code?: string };
    process.stderr.write(`${def.name}: failed to start: ${err.code ? `${err.code} ` : ''}${err.message}\n`);
    process.exit(1);
  }
}
