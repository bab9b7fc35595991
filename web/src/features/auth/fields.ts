import { defineMessages } from '@/i18n';

/** The auth forms' field labels, the same on every form. */
export const FIELDS = defineMessages({
  email: { id: 'auth.field.email', defaultMessage: 'Email' },
  password: { id: 'auth.field.password', defaultMessage: 'Password' },
  confirmPassword: { id: 'auth.field.confirmPassword', defaultMessage: 'Confirm password' },
  newPassword: { id: 'auth.field.newPassword', defaultMessage: 'New password' },
  confirmNewPassword: { id: 'auth.field.confirmNewPassword', defaultMessage: 'Confirm new password' },
});
