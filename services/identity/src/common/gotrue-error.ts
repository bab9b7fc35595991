import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AllExceptionsFilter, AppError, unwrapHttpError } from '@beacon/common';
import type { IdentityErrorCode } from '@beacon/contracts';
import { DataKeyError } from './data-key';

/** The hosted auth API's codes (libs/contracts errors.ts): the auth client library branches on some of them. */
export type AuthErrorCode = IdentityErrorCode;

/** An error in the hosted auth service's vocabulary: HTTP status, stable code, message fit to show a person. */
export class AuthError extends HttpException {
  constructor(
    readonly httpStatus: number,
    readonly errorCode: AuthErrorCode,
    message: string,
    /** Extra top-level fields, e.g. `weak_password: { reasons }`. */
    readonly extra: Record<string, unknown> = {},
    /** Seconds until a rate limit resets (sent as Retry-After). */
    readonly retryAfter?: number,
  ) {
    super(message, httpStatus);
  }
}

export const WEAK_PASSWORD_STATUS = 422;

export function weakPasswordError(message: string, reasons: string[]) {
  return new AuthError(WEAK_PASSWORD_STATUS, 'weak_password', message, { weak_password: { reasons } });
}

/** The API version header of the hosted service; clients that send 2024-01-01 or later get the newer error body. */
export const API_VERSION_HEADER = 'x-supabase-api-version';
const API_VERSION_2024 = Date.parse('2024-01-01T00:00:00Z');

function requestApiVersion(req: Request): string | null {
  const raw = req.headers[API_VERSION_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const t = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(t) || t < API_VERSION_2024 ? null : '2024-01-01';
}

/** Codes our shared layers (validation pipe, body parser) produce, in the hosted service's vocabulary. */
function fromSharedError(raised: unknown): AuthError {
  const exception = unwrapHttpError(raised);
  if (exception instanceof AuthError) return exception;
  if (exception instanceof AppError) {
    const status = exception.getStatus();
    const code: AuthErrorCode = status === 404 ? 'not_found' : status === 401 ? 'no_authorization' : 'validation_failed';
    return new AuthError(status, code, exception.message);
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    // Nest turns body-parser's SyntaxError into a bare BadRequestException carrying JSON.parse's message.
    if (status === 400 && /JSON/.test(exception.message)) return new AuthError(400, 'bad_json', 'Could not parse request body as JSON');
    if (status === 404) return new AuthError(404, 'not_found', 'Not found');
    if (status < 500) return new AuthError(status, 'validation_failed', exception.message);
  }
  const e = exception as { status?: number; type?: string; message?: string };
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    if (e.type === 'entity.parse.failed') return new AuthError(400, 'bad_json', 'Could not parse request body as JSON');
    if (e.status === 413) return new AuthError(413, 'validation_failed', 'The request body is too large');
    return new AuthError(e.status, 'validation_failed', e.message ?? 'Bad request');
  }
  return new AuthError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information');
}

/**
 * Renders errors on /auth/v1 exactly as the hosted auth service does, so its client library reads them:
 * `{code: <status>, error_code, msg}` by default, and `{code: <error code>, message}` for clients that send
 * X-Supabase-Api-Version 2024-01-01 or later (auth-js does); weak passwords add `weak_password.reasons`.
 * Routes outside the prefix (/health, /ready) keep the platform's shared error shape.
 */
@Catch()
export class AuthExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('AuthExceptions');
  private readonly shared = new AllExceptionsFilter();

  constructor(private readonly prefix: string) {}

  catch(exception: unknown, host: ArgumentsHost) {
    if (host.getType() !== 'http') throw exception;
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    // baseUrl too: NestJS 12 mounts its not-found and error handlers on a router at the global prefix, where req.path
    // is what follows the prefix
    if (!`${req.baseUrl}${req.path}`.startsWith(this.prefix)) return this.shared.catch(exception, host);
    const error = fromSharedError(exception);
    // A stored secret unreadable with IDENTITY_DATA_KEY is an operator's matter, and its message says everything.
    if (exception instanceof DataKeyError) this.logger.error(exception.message);
    else if (error.httpStatus >= 500) this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    if (res.headersSent) return;
    if (error.retryAfter !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(error.retryAfter))));
    const version = requestApiVersion(req);
    if (version) {
      res.setHeader('X-Supabase-Api-Version', version);
      res.status(error.httpStatus).json({ code: error.errorCode, message: error.message, ...error.extra });
    } else {
      res.status(error.httpStatus).json({ code: error.httpStatus, error_code: error.errorCode, msg: error.message, ...error.extra });
    }
  }
}
