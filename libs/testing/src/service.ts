import type { NestExpressApplication } from '@nestjs/platform-express';
import { BaseEnv, createServiceApp, loadEnv, ServiceDefinition } from '@beacon/common';

export interface RunningService<E> {
  app: NestExpressApplication;
  env: E;
  /** Base URL including the service's prefix, e.g. http://127.0.0.1:41234/api/store */
  url: string;
  /** Base URL without prefix (for /health and /ready). */
  origin: string;
  close(): Promise<void>;
}

/** Boots a real service (real database, real Redis) on a free port, exactly as main.ts would. */
export async function startTestService<E extends BaseEnv>(def: ServiceDefinition<E>, vars: Record<string, string | undefined>): Promise<RunningService<E>> {
  const env = loadEnv(def.envClass, { NODE_ENV: 'test', LOG_LEVEL: 'silent', ...vars });
  const app = await createServiceApp(def, env, { logger: false });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    app,
    env,
    origin,
    url: def.prefix ? `${origin}/${def.prefix}` : origin,
    close: () => app.close(),
  };
}
