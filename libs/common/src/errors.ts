import { ArgumentsHost, BadRequestException, Catch, ExceptionFilter, HttpException, HttpStatus, Logger, ValidationError, ValidationPipe } from '@nestjs/common';
import type { Response } from 'express';
import type { ErrorCode, ServiceErrorCode } from '@beacon/contracts';

/** The JSON body of every error Beacon's APIs return. `code` is stable and machine-readable. */
export interface ErrorBody {
  statusCode: number;
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** An error the caller can act on: it carries a status, a stable code and a message fit to show a person. */
export class AppError extends HttpException {
  constructor(
    status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super({ statusCode: status, code, message, details } satisfies ErrorBody, status);
  }
}

export const notFound = (what: string, code: ServiceErrorCode = 'not_found') => new AppError(404, code, `${what} not found`);
export const forbidden = (message = 'You do not have permission to do that', code: ServiceErrorCode = 'forbidden') => new AppError(403, code, message);
export const conflict = (message: string, code: ServiceErrorCode = 'conflict') => new AppError(409, code, message);
export const badRequest = (message: string, code: ServiceErrorCode = 'bad_request', details?: unknown) => new AppError(400, code, message, details);

const DEFAULT_CODES: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'too_many_requests',
};

function flatten(errors: ValidationError[], parent = ''): { field: string; message: string }[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    return own.concat(flatten(e.children ?? [], field));
  });
}

/**
 * Validation with the DTO's own messages. Unknown fields are refused rather than silently dropped, unless the
 * service speaks an API whose clients send more than it reads (identity: the hosted auth API ignores them, and
 * current auth clients rely on that); then they are dropped, and the known ones still validated.
 */
export function createValidationPipe(options: { unknownFields?: 'refuse' | 'ignore' } = {}) {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: options.unknownFields !== 'ignore',
    transform: true,
    exceptionFactory: (errors) => {
      const fields = flatten(errors);
      const message = fields[0]?.message ?? 'Invalid request';
      return new AppError(400, 'validation_failed', message, { fields });
    },
  });
}

/**
 * An error of Express or body-parser as it was raised (a too large body, an unsupported charset): NestJS 12 wraps
 * each such 4xx error in an HttpException that keeps it as `cause`, and its `type` is what tells the cases apart. A
 * malformed JSON body's SyntaxError stays the BadRequestException NestJS has always made of it.
 */
export function unwrapHttpError(exception: unknown): unknown {
  if (!(exception instanceof HttpException) || exception.cause instanceof SyntaxError || exception.cause instanceof URIError) return exception;
  const cause = exception.cause as { status?: unknown; type?: unknown } | undefined;
  return typeof cause?.status === 'number' && typeof cause.type === 'string' ? cause : exception;
}

/** Renders every error as an ErrorBody; unexpected errors are logged and never leak their stack. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  catch(exception: unknown, host: ArgumentsHost) {
    if (host.getType() !== 'http') throw exception;
    const res = host.switchToHttp().getResponse<Response>();
    const body = toErrorBody(exception);
    if (body.statusCode >= 500) this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    if (res.headersSent) return;
    res.status(body.statusCode).json(body);
  }
}

export function toErrorBody(raised: unknown): ErrorBody {
  const exception = unwrapHttpError(raised);
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    if (typeof response === 'object' && response && 'code' in response) return response as ErrorBody;
    const message = typeof response === 'string' ? response : (response as { message?: string | string[] }).message;
    return {
      // keep structured bodies (e.g. the readiness report) and add the stable fields
      ...(typeof response === 'object' ? response : {}),
      statusCode: status,
      code: DEFAULT_CODES[status] ?? (status >= 500 ? 'internal_error' : 'error'),
      message: Array.isArray(message) ? message[0] : (message ?? exception.message),
    };
  }
  // body-parser errors (malformed JSON, too large) arrive as plain errors with a status
  const e = exception as { status?: number; statusCode?: number; type?: string; message?: string };
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = e.type === 'entity.parse.failed' ? 'malformed_json' : (DEFAULT_CODES[status] ?? 'bad_request');
    const message =
      e.type === 'entity.parse.failed' ? 'The request body is not valid JSON' : status === 413 ? 'The request body is too large' : (e.message ?? 'Bad request');
    return { statusCode: status, code, message };
  }
  return { statusCode: HttpStatus.INTERNAL_SERVER_ERROR, code: 'internal_error', message: 'Something went wrong on our side. Please try again.' };
}

export { BadRequestException };
