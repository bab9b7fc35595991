import { LoggerModule } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';

const SECRET_PARAMS = /([?&](?:token|token_hash|access_token|refresh_token|code|key|apikey|password)=)[^&#]*/gi;

/** Query-string secrets (mail-link tokens, API keys) never reach the logs. */
export function redactUrl(url: string | undefined): string | undefined {
  return url?.replace(SECRET_PARAMS, '$1[redacted]');
}

/** Structured JSON logs; secrets in headers never reach them. */
export function loggingModule(service: string, level: string) {
  return LoggerModule.forRoot({
    pinoHttp: {
      level,
      base: { service },
      genReqId: (req) => (req.headers['x-request-id'] as string) || randomUUID(),
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers.apikey', 'res.headers["set-cookie"]'],
      autoLogging: { ignore: (req) => req.url === '/health' || req.url === '/ready' },
      serializers: {
        req: (req: { url?: string }) => ({ ...req, url: redactUrl(req.url) }),
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    },
  });
}
