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

/** Structured JSON logs; secrets in headers never reach them. */
export function loggingModule(service: string, level: string) {
  return LoggerModule.forRoot({
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
