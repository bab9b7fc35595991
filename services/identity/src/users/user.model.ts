import type { Role } from '@beacon/auth';

/** A row of identity.users. */
export interface UserRow {
  id: string;
  identity_id: string;
  email: string;
  encrypted_password: string | null;
  app_role: Role;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  email_confirmed_at: Date | null;
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  email_change: string | null;
  email_change_sent_at: Date | null;
  last_sign_in_at: Date | null;
  banned_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: 'totp';
  status: 'unverified' | 'verified';
  secret: string;
  last_used_step: string | null;
  created_at: Date;
  updated_at: Date;
}

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : undefined);

/** app_metadata as clients see it: what admins stored, plus provider(s) and the Beacon role. */
export function appMetadata(user: UserRow) {
  return { ...user.app_metadata, provider: 'email', providers: ['email'], role: user.app_role };
}

export function isBanned(user: UserRow, now = new Date()) {
  return !!user.banned_until && user.banned_until > now;
}

/** The user object of the hosted auth service's API (GoTrue's models.User JSON). */
export function presentUser(user: UserRow, factors: FactorRow[] = []) {
  const identityData = { email: user.email, email_verified: !!user.email_confirmed_at, phone_verified: false, sub: user.id };
  return {
    id: user.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: user.email,
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: '',
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.email_confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    new_email: user.email_change ?? undefined,
    email_change_sent_at: iso(user.email_change_sent_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    banned_until: iso(user.banned_until),
    app_metadata: appMetadata(user),
    user_metadata: user.user_metadata,
    identities: [
      {
        identity_id: user.identity_id,
        id: user.id,
        user_id: user.id,
        identity_data: identityData,
        provider: 'email',
        last_sign_in_at: iso(user.last_sign_in_at ?? user.created_at),
        created_at: iso(user.created_at),
        updated_at: iso(user.updated_at),
        email: user.email,
      },
    ],
    ...(factors.length ? { factors: factors.map(presentFactor) } : {}),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    is_anonymous: false,
  };
}

export function presentFactor(f: FactorRow) {
  return {
    id: f.id,
    friendly_name: f.friendly_name ?? undefined,
    factor_type: f.factor_type,
    status: f.status,
    created_at: iso(f.created_at),
    updated_at: iso(f.updated_at),
  };
}

export type PresentedUser = ReturnType<typeof presentUser>;
