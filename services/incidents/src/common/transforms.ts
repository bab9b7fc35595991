import { Transform } from 'class-transformer';

/** Trims strings so that whitespace never counts towards a minimum length. */
export const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** Trims, and turns an empty optional text into null. */
export const TrimToNull = () =>
  Transform(({ value }) => {
    if (typeof value !== 'string') return value;
    const t = value.trim();
    return t === '' ? null : t;
  });
