export { LoginPage } from './LoginPage';
export { SignupPage } from './SignupPage';
export { ForgotPasswordPage } from './ForgotPasswordPage';
export { ResetPasswordPage } from './ResetPasswordPage';
export { RequireAuth, RequireAdmin } from './guards';
export { AuthListener } from './AuthListener';
export { useSignOut } from './useSignOut';
export { auth, accessToken } from './auth-client';
export { selectUser, selectIsAdmin, selectAuthStatus, displayName } from './auth.slice';
