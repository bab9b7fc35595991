import { isEmail } from 'class-validator';
import { AuthError } from './gotrue-error';

/** Emails are compared and stored trimmed and lower-cased. */
export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 320 || !isEmail(email, { allow_utf8_local_part: false, require_tld: false })) {
    throw new AuthError(400, 'validation_failed', 'Unable to validate email address: invalid format');
  }
  return email;
}
