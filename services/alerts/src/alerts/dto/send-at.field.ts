import { applyDecorators } from '@nestjs/common';
import { IsISO8601, IsOptional, Matches } from 'class-validator';

const MESSAGE = 'sendAt must be a date and time with its time zone offset, e.g. 2030-05-01T14:30:00Z';

/**
 * A send time (CreateAlertDto.sendAt, SendDraftDto.sendAt): an ISO 8601 date and time with its offset, e.g.
 * 2030-05-01T14:30:00Z or 2030-05-01T07:30:00-07:00. Without one it would be read in the server's zone, not the
 * sender's; how far ahead it may be is checked against the clock by sendTime.
 */
export const SendAtField = () =>
  applyDecorators(
    IsOptional(),
    // strict: no 30 February (which Date would read as 2 March)
    IsISO8601({ strict: true }, { message: MESSAGE }),
    Matches(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/, {
      message: MESSAGE,
    }),
  );
