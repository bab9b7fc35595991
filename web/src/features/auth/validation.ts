import type { IntlShape, MessageDescriptor } from 'react-intl';
import { currentIntl, defineMessages } from '@/i18n';

// The spec's sign-in and sign-up rules (part 1, section 5), shared by the forms and their tests.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** The spec's messages, word for word in English. */
export const VALIDATION = defineMessages({
  email: { id: 'auth.validation.email', defaultMessage: 'Please enter a valid email address' },
  passwordMin6: { id: 'auth.validation.passwordMin6', defaultMessage: 'Password must be at least 6 characters' },
  passwordMin8: { id: 'auth.validation.passwordMin8', defaultMessage: 'Password must be at least 8 characters' },
  mismatch: { id: 'auth.validation.mismatch', defaultMessage: "Passwords don't match" },
  terms: { id: 'auth.validation.terms', defaultMessage: 'Please accept the Terms of Service and Privacy Policy' },
});

/**
 * What is wrong with each field, as messages: a form keeps these and words them when it renders, so a switch of
 * language rewords the errors shown.
 */
export interface FieldProblems {
  [field: string]: MessageDescriptor | undefined;
}

/** What is wrong with each field, in words. */
export interface FieldErrors {
  [field: string]: string | undefined;
}

export function signInProblems(v: { email: string; password: string }): FieldProblems {
  const problems: FieldProblems = {};
  if (!EMAIL.test(v.email.trim())) problems.email = VALIDATION.email;
  if (v.password.length < 6) problems.password = VALIDATION.passwordMin6;
  return problems;
}

/** The rule for a password someone chooses (signing up, resetting it), typed twice. */
export function newPasswordProblems(v: { password: string; confirmPassword: string }): FieldProblems {
  const problems: FieldProblems = {};
  if (v.password.length < 8) problems.password = VALIDATION.passwordMin8;
  if (v.confirmPassword !== v.password) problems.confirmPassword = VALIDATION.mismatch;
  return problems;
}

export function signUpProblems(v: { email: string; password: string; confirmPassword: string; terms: boolean }): FieldProblems {
  const problems: FieldProblems = {};
  if (!EMAIL.test(v.email.trim())) problems.email = VALIDATION.email;
  Object.assign(problems, newPasswordProblems(v));
  if (!v.terms) problems.terms = VALIDATION.terms;
  return problems;
}

export function emailProblem(email: string): MessageDescriptor | undefined {
  return EMAIL.test(email.trim()) ? undefined : VALIDATION.email;
}

/** The problems in the reader's words. */
export function worded(problems: FieldProblems, intl: IntlShape = currentIntl()): FieldErrors {
  return Object.fromEntries(Object.entries(problems).map(([field, problem]) => [field, problem && intl.formatMessage(problem)]));
}

export const validateSignIn = (v: { email: string; password: string }, intl?: IntlShape): FieldErrors => worded(signInProblems(v), intl);

export const validateNewPassword = (v: { password: string; confirmPassword: string }, intl?: IntlShape): FieldErrors => worded(newPasswordProblems(v), intl);

export const validateSignUp = (v: { email: string; password: string; confirmPassword: string; terms: boolean }, intl?: IntlShape): FieldErrors =>
  worded(signUpProblems(v), intl);

export function validateEmail(email: string, intl: IntlShape = currentIntl()): string | undefined {
  const problem = emailProblem(email);
  return problem && intl.formatMessage(problem);
}

export const hasErrors = (errors: FieldErrors | FieldProblems) => Object.values(errors).some(Boolean);
