import { checkSessionLive } from './guards';
import { RevocationUnavailableError, SessionRevocations } from './revocation';
import type { AuthUser } from './token';

const user = (over: Partial<AuthUser> = {}): AuthUser => ({ id: 'u1', email: 'a@example.org', role: 'user', sessionId: 's1', aal: 'aal1', ...over });
const store = (answer: boolean | 'down') =>
  ({ isRevoked: async () => (answer === 'down' ? Promise.reject(new RevocationUnavailableError('timed out')) : answer) }) as unknown as SessionRevocations;

/** The one rule every service's guard and the gateway apply after a token's signature checks out. */
describe('checkSessionLive', () => {
  it('refuses a token of an ended session with 401 session_revoked', async () => {
    await expect(checkSessionLive(store(true), user(), false)).rejects.toMatchObject({ status: 401, code: 'session_revoked' });
  });

  it('lets a live session through', async () => {
    await expect(checkSessionLive(store(false), user({ role: 'admin' }), true)).resolves.toBeUndefined();
  });

  it('when Redis cannot say: refuses admin routes and admin tokens with 503, lets other users read on', async () => {
    await expect(checkSessionLive(store('down'), user(), true)).rejects.toMatchObject({ status: 503, code: 'session_check_unavailable' });
    await expect(checkSessionLive(store('down'), user({ role: 'admin' }), false)).rejects.toMatchObject({ status: 503 });
    await expect(checkSessionLive(store('down'), user(), false)).resolves.toBeUndefined();
  });

  it('has nothing to check for a token without a session', async () => {
    await expect(checkSessionLive(store(true), user({ sessionId: null }), true)).resolves.toBeUndefined();
  });
});
