import { hasErrors, validateNewPassword, validateSignIn, validateSignUp } from './validation';

describe('sign-in rules', () => {
  it('needs a valid email and a 6-character password', () => {
    expect(validateSignIn({ email: 'nope', password: '12345' })).toEqual({
      email: 'Please enter a valid email address',
      password: 'Password must be at least 6 characters',
    });
    expect(hasErrors(validateSignIn({ email: 'a@b.co', password: '123456' }))).toBe(false);
  });
});

describe('sign-up rules', () => {
  const ok = { email: 'a@b.co', password: '12345678', confirmPassword: '12345678', terms: true };
  it('accepts a valid form', () => expect(hasErrors(validateSignUp(ok))).toBe(false));
  it('needs 8 characters', () =>
    expect(validateSignUp({ ...ok, password: '1234567', confirmPassword: '1234567' }).password).toBe('Password must be at least 8 characters'));
  it('shows the mismatch on confirmPassword', () =>
    expect(validateSignUp({ ...ok, confirmPassword: 'x2345678' }).confirmPassword).toBe("Passwords don't match"));
  it('needs the terms ticked', () => expect(validateSignUp({ ...ok, terms: false }).terms).toBeDefined());
});

describe('new-password rules (sign-up and reset)', () => {
  it('checks the password and its confirmation, and nothing else', () => {
    expect(validateNewPassword({ password: '1234567', confirmPassword: 'x' })).toEqual({
      password: 'Password must be at least 8 characters',
      confirmPassword: "Passwords don't match",
    });
    expect(hasErrors(validateNewPassword({ password: '12345678', confirmPassword: '12345678' }))).toBe(false);
  });
});
