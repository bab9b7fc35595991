import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { User } from '@supabase/auth-js';
import { hasRole, isRole, isStaff, type Role } from '@beacon/contracts';

export interface SignedInUser {
  id: string;
  email: string;
  /** app_metadata.role: the public ('user') or a staff role (issue #38); anything else reads as 'user'. */
  role: Role;
}

export interface AuthState {
  /**
   * secondFactor: the password (or a recovery link) was accepted but the user has two-factor authentication on and
   * has not entered a code yet. Such a session is not signed in: protected pages send it to /login for the code.
   */
  status: 'loading' | 'signedIn' | 'secondFactor' | 'signedOut';
  user: SignedInUser | null;
  /** Set while the user arrived through a recovery link and must choose a new password. */
  recovering: boolean;
}

const initialState: AuthState = { status: 'loading', user: null, recovering: false };

export function toSignedInUser(user: User): SignedInUser {
  const role: unknown = user.app_metadata?.role;
  return { id: user.id, email: user.email ?? '', role: isRole(role) ? role : 'user' };
}

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    signedIn(state, action: PayloadAction<SignedInUser>) {
      state.status = 'signedIn';
      state.user = action.payload;
    },
    secondFactorRequired(state, action: PayloadAction<SignedInUser>) {
      state.status = 'secondFactor';
      state.user = action.payload;
    },
    signedOut(state) {
      state.status = 'signedOut';
      state.user = null;
      state.recovering = false;
    },
    recoveryStarted(state) {
      state.recovering = true;
    },
  },
  selectors: {
    selectAuthStatus: (s) => s.status,
    selectUser: (s) => s.user,
    selectRole: (s): Role | null => s.user?.role ?? null,
    /** Any staff role: the admin console is theirs (read-only for a viewer). */
    selectIsStaff: (s) => isStaff(s.user?.role),
    /** Drafts, sends, updates, cancels (publisher and up). */
    selectCanPublish: (s) => hasRole(s.user?.role, 'publisher'),
    /** Approves or rejects a colleague's alert (approver and up). */
    selectCanApprove: (s) => hasRole(s.user?.role, 'approver'),
    /** Administrators only: settings, roles, moderation, the store. */
    selectIsAdmin: (s) => s.user?.role === 'admin',
    selectRecovering: (s) => s.recovering,
  },
});

export const { signedIn, secondFactorRequired, signedOut, recoveryStarted } = authSlice.actions;
export const { selectAuthStatus, selectUser, selectRole, selectIsStaff, selectCanPublish, selectCanApprove, selectIsAdmin, selectRecovering } =
  authSlice.selectors;

/** The name shown on screens: the part of the e-mail before the at sign. */
export function displayName(email: string | undefined | null) {
  return (email ?? '').split('@')[0] || 'there';
}
