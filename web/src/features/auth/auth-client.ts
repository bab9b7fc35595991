import { AuthClient, type SupportedStorage } from '@supabase/auth-js';

const REMEMBER_KEY = 'beacon.remember';

/** "Remember me": the session lives in localStorage (survives the browser) or in sessionStorage (this tab only). */
export function setRememberMe(remember: boolean) {
  localStorage.setItem(REMEMBER_KEY, remember ? '1' : '0');
}

function remembered() {
  return localStorage.getItem(REMEMBER_KEY) !== '0';
}

const switchingStorage: SupportedStorage = {
  getItem: (key) => localStorage.getItem(key) ?? sessionStorage.getItem(key),
  setItem: (key, value) => {
    const [keep, drop] = remembered() ? [localStorage, sessionStorage] : [sessionStorage, localStorage];
    keep.setItem(key, value);
    drop.removeItem(key);
  },
  removeItem: (key) => {
    localStorage.removeItem(key);
    sessionStorage.removeItem(key);
  },
};

/**
 * The standard client of the hosted auth service, pointed at Beacon's own identity service. Session
 * storage, refresh with backoff, and auth events come from it.
 */
export const auth = new AuthClient({
  url: `${window.location.origin}/auth/v1`,
  storageKey: 'beacon.auth',
  storage: switchingStorage,
  persistSession: true,
  autoRefreshToken: true,
  detectSessionInUrl: true,
  flowType: 'implicit',
});

/** The current access token, refreshed by the client when it is near expiry. */
export async function accessToken(): Promise<string | null> {
  const { data } = await auth.getSession();
  return data.session?.access_token ?? null;
}
