import { ParseUUIDPipe } from '@nestjs/common';
import { notFound } from '@beacon/common';

/** A malformed id names no alert: 404, like an unknown one. */
export const alertIdPipe = new ParseUUIDPipe({ exceptionFactory: () => notFound('Alert', 'alert_not_found') });
