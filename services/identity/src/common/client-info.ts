import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { ClientInfo } from '../sessions/tokens.service';

/** The caller's address (X-Forwarded-For counts only from TRUSTED_PROXY, via Express 'trust proxy') and user agent. */
export const Client = createParamDecorator((_data: unknown, ctx: ExecutionContext): ClientInfo => {
  const req = ctx.switchToHttp().getRequest<Request>();
  const ua = req.headers['user-agent'];
  return { ip: req.ip ?? req.socket.remoteAddress ?? null, userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null };
});
