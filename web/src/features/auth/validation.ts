// The spec's sign-in and sign-up rules (part 1, section 5), shared by the forms and their tests.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export interface FieldErrors {
  [field: string]: string | undefined;
}

export function validateSignIn(v: { email: string; password: string }): FieldErrors {
  const errors: FieldErrors = {};
  if (!EMAIL.test(v.email.trim())) errors.email = 'Please enter a valid email address';
  if (v.password.length < 6) errors.password = 'Password must be at least 6 characters';
  return errors;
}

/** The rule for a password someone chooses (signing up, resetting it), typed twice. */
export function validateNewPassword(v: { password: string; confirmPassword: string }): FieldErrors {
  const errors: FieldErrors = {};
  if (v.password.length < 8) errors.password = 'Password must be at least 8 characters';
  if (v.confirmPassword !== v.password) errors.confirmPassword = "Passwords don't match";
  return errors;
}

export function validateSignUp(v: { email: string; password: string; confirmPassword: string; terms: boolean }): FieldErrors {
  const errors: FieldErrors = {};
  if (!EMAIL.test(v.email.trim())) errors.email = 'Please enter a valid email address';
  Object.assign(errors, validateNewPassword(v));
  if (!v.terms) errors.terms = 'Please accept the Terms of Service and Privacy Policy';
  return errors;
}

export function validateEmail(email: string): string | undefined {
  return EMAIL.test(email.trim()) ? undefined : 'Please enter a valid email address';
}

export const hasErrors = (errors: FieldErrors) => Object.values(errors).some(Boolean);
