import { Transform } from 'class-transformer';

/**
 * Query strings carry 'true'/'false'; anything else is left as is so @IsBoolean reports it
 * instead of it being silently read as false.
 */
export const BooleanQuery = () =>
  Transform(({ value }) => {
    if (typeof value !== 'string') return value;
    const v = value.toLowerCase();
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    return value;
  });
