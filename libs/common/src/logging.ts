import { LoggerModule } from 'nestjs-pino';
import { currentRequestId, currentTraceId, REQUEST_ID_HEADER, requestIdFrom } from './observability';

const SECRET_PARAMS = /([?&](?:token|token_hash|access_token|refresh_token|code|key|apikey|password)=)[^&#]*/gi;

/** Query-string secrets (mail-link tokens, API keys) never reach the logs. */
export function redactUrl(url: string | undefined): string | undefined {
  return url?.replace(SECRET_PARAMS, '$1[redacted]');
}

/**
 * What every log line carries about the work it belongs to: the request id (of the request, or of the request that
 * queued the job being worked) and the trace id when tracing is on.
 */
function logContext(): Record<string, string> {
  const requestId = currentRequestId();
  const traceId = currentTraceId();
  return { ...(requestId ? { requestId } : {}), ...(traceId ? { traceId } : {}) };
}

/**
 * Structured JSON logs; secrets in headers never reach them. `httpRequests: false` leaves the HTTP requests unlogged:
 * nestjs-pino runs each one in an AsyncLocalStorage of its own, and on Node 20 one such run switches on the async hooks
 * every later promise of the process pays for (see propagateRequestContext). The dispatcher's HTTP is probes and
 * metrics scrapes; its first probe would otherwise have cost its channel jobs a tenth of their CPU.
 */
export function loggingModule(service: string, level: string, { httpRequests = true }: { httpRequests?: boolean } = {}) {
  return LoggerModule.forRoot({
    ...(httpRequests ? {} : { forRoutes: [] }),
    pinoHttp: {
      level,
      base: { service },
      // the id the request context gave the request (a valid X-Request-Id from the edge, or a new one)
      genReqId: (req) => currentRequestId() ?? requestIdFrom(req.headers[REQUEST_ID_HEADER]),
      mixin: logContext,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers.apikey', 'res.headers["set-cookie"]'],
      autoLogging: { ignore: (req) => req.url === '/health' || req.url === '/ready' },
      serializers: {
        req: (req: { url?: string }) => ({ ...req, url: redactUrl(req.url) }),
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    },
  });
}
