import { CryptoKey, decodeJwt, generateKeyPair } from 'jose';
import type { DataSource } from 'typeorm';
import type { SessionRevocations } from '@beacon/auth';
import { loadEnv } from '@beacon/common';
import { IdentityEnv } from '../config/env.dto';
import type { SigningKeysService } from '../keys/signing-keys.service';
import type { UserRow } from '../users/user.model';
import type { UsersRepository } from '../users/users.repository';
import type { SessionRow, SessionsRepository } from './sessions.repository';
import { TokensService } from './tokens.service';

/** A sign-in right after the user's tokens were voided: the token it gets is not of the cut-off's second. */
describe('TokensService past a user cut-off', () => {
  let privateKey: CryptoKey;
  beforeAll(async () => {
    ({ privateKey } = await generateKeyPair('ES256'));
  });
  const keys = { signingKey: () => ({ kid: 'k1', key: privateKey }) } as unknown as SigningKeysService;
  const user = { id: '00000000-0000-4000-8000-000000000001', email: 'returning@example.org', user_metadata: {} } as unknown as UserRow;
  const session = { id: '00000000-0000-4000-8000-000000000002', aal: 'aal1', amr: [] } as unknown as SessionRow;

  afterEach(() => jest.restoreAllMocks());

  it('signs in the next second by the clock, even when a timer fires early by it (a busy event loop)', async () => {
    const cutoff = Math.floor(Date.now() / 1000);
    const revocations = { userCutoff: async () => cutoff } as unknown as SessionRevocations;
    const tokens = new TokensService({} as DataSource, loadEnv(IdentityEnv, {}), keys, {} as SessionsRepository, {} as UsersRepository, revocations);
    // libuv counts a timer from the loop's cached time: the first one fires at once here, as one can by the clock
    const realSetTimeout = global.setTimeout;
    let early = true;
    jest.spyOn(global, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
      if (early) {
        early = false;
        return realSetTimeout(fn, 0);
      }
      return realSetTimeout(fn, ms);
    }) as typeof setTimeout);
    const { token } = await tokens.signAccessToken(user, session);
    expect(decodeJwt(token).iat).toBeGreaterThan(cutoff);
  });

  it('signs at once when the user has no cut-off', async () => {
    const revocations = { userCutoff: async () => null } as unknown as SessionRevocations;
    const tokens = new TokensService({} as DataSource, loadEnv(IdentityEnv, {}), keys, {} as SessionsRepository, {} as UsersRepository, revocations);
    const before = Math.floor(Date.now() / 1000);
    const { token } = await tokens.signAccessToken(user, session);
    expect(decodeJwt(token).iat).toBeLessThanOrEqual(before + 1);
  });
});
