export { LoginPage } from './LoginPage';
export { SignupPage } from './SignupPage';
export { ForgotPasswordPage } from './ForgotPasswordPage';
export { ResetPasswordPage } from './ResetPasswordPage';
export { RequireAuth, RequireAdmin, RequireRole, RequireStaff } from './guards';
