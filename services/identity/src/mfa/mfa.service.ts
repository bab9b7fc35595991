import { Injectable } from '@nestjs/common';
import { generateSecret, generateURI, verify } from 'otplib';
import { DataSource } from 'typeorm';
import type { Caller } from '../auth/auth.guard';
import { IdentityEnv } from '../config/env.dto';
import { AuthError } from '../common/gotrue-error';
import { RateLimits } from '../common/rate-limits';
import { isUuid } from '../common/uuid';
import { SessionsRepository } from '../sessions/sessions.repository';
import { ClientInfo, TokenResponse, TokensService } from '../sessions/tokens.service';
import { UsersRepository } from '../users/users.repository';
import { FactorsRepository } from './factors.repository';
import { qrCodeSvg } from './qr-code';

/** RFC 6238 defaults that authenticator apps expect: SHA-1, 6 digits, 30 s steps; one step of clock drift either way. */
const STEP_SECONDS = 30;
const TOTP = { algorithm: 'sha1', digits: 6, period: STEP_SECONDS } as const;
export const CHALLENGE_TTL_SECONDS = 300;
const ABANDONED_ENROLMENT_SECONDS = 600;
const MAX_FACTORS = 10;

export interface EnrollRequest {
  factor_type?: string;
  friendly_name?: string;
  issuer?: string;
}

@Injectable()
export class MfaService {
  constructor(
    private readonly ds: DataSource,
    private readonly env: IdentityEnv,
    private readonly factors: FactorsRepository,
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly tokens: TokensService,
    private readonly limits: RateLimits,
  ) {}

  /** POST /factors: a new unverified TOTP factor with its secret, otpauth URI and QR code (SVG). */
  async enroll(caller: Caller, body: EnrollRequest) {
    if (body.factor_type === 'phone') throw new AuthError(422, 'validation_failed', 'MFA enroll is disabled for Phone');
    if (body.factor_type !== 'totp') throw new AuthError(400, 'validation_failed', 'factor_type needs to be totp');
    const { user, session } = caller;
    await this.factors.deleteAbandoned(user.id, ABANDONED_ENROLMENT_SECONDS);
    const all = await this.users.factors(user.id);
    const friendlyName = body.friendly_name?.trim() || null;
    if (friendlyName && all.some((f) => f.friendly_name === friendlyName)) {
      throw new AuthError(422, 'mfa_factor_name_conflict', `A factor with the friendly name "${friendlyName}" for this user already exists`);
    }
    if (all.length >= MAX_FACTORS)
      throw new AuthError(422, 'too_many_enrolled_mfa_factors', 'Maximum number of verified factors reached, unenroll to continue');
    if (all.some((f) => f.status === 'verified') && session.aal !== 'aal2') {
      throw new AuthError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
    }
    const secret = generateSecret({ length: 20 });
    const factor = await this.factors.insert({ userId: user.id, friendlyName, secret });
    if (!factor) throw new AuthError(422, 'mfa_factor_name_conflict', `A factor with the friendly name "${friendlyName}" for this user already exists`);
    const issuer = body.issuer?.trim() || new URL(this.env.PUBLIC_URL).host;
    const uri = generateURI({ ...TOTP, issuer, label: user.email, secret });
    return {
      id: factor.id,
      type: 'totp',
      friendly_name: factor.friendly_name ?? '',
      totp: { qr_code: await qrCodeSvg(uri), secret, uri },
    };
  }

  /** POST /factors/{id}/challenge: a challenge bound to the caller's IP, valid for five minutes. */
  async challenge(caller: Caller, factorId: string, client: ClientInfo) {
    await this.limits.consume('mfaIp', client.ip);
    const factor = await this.ownedFactor(caller, factorId);
    const challenge = await this.factors.createChallenge(factor.id, client.ip ?? '');
    return { id: challenge.id, type: 'totp', expires_at: Math.floor(new Date(challenge.created_at).getTime() / 1000) + CHALLENGE_TTL_SECONDS };
  }

  /**
   * POST /factors/{id}/verify: checks the TOTP code (each code works once), marks the factor verified, raises the
   * session to aal2 and returns new tokens. Sessions of the user that are still aal1 end.
   */
  async verify(caller: Caller, factorId: string, body: { challenge_id?: string; code?: string }, client: ClientInfo): Promise<TokenResponse> {
    if (!body.code) throw new AuthError(400, 'validation_failed', 'Code needs to be non-empty');
    if (!body.challenge_id) throw new AuthError(400, 'validation_failed', 'challenge_id is required');
    await this.limits.consume('mfaIp', client.ip);
    const attempt = await this.limits.beginMfaAttempt(caller.user.id);
    const factor = await this.ownedFactor(caller, factorId);
    const challenge = isUuid(body.challenge_id) ? await this.factors.findChallenge(factor.id, body.challenge_id) : null;
    if (!challenge) throw new AuthError(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
    if (challenge.verified_at || challenge.ip !== (client.ip ?? '')) {
      throw new AuthError(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
    }
    if (challenge.age_seconds > CHALLENGE_TTL_SECONDS) {
      await this.factors.deleteChallenge(challenge.id);
      throw new AuthError(
        422,
        'mfa_challenge_expired',
        `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
      );
    }
    const invalid = () => new AuthError(422, 'mfa_verification_failed', 'Invalid TOTP code entered');
    if (!/^\d{6}$/.test(body.code)) throw invalid();
    const checked = await verify({ ...TOTP, secret: factor.secret, token: body.code, epochTolerance: STEP_SECONDS });
    // a TOTP result names the 30 s step the code belongs to (an HOTP one, which the type also allows, would not)
    if (!checked.valid || !('timeStep' in checked)) throw invalid();
    const step = checked.timeStep;

    const response = await this.ds.transaction(async (tx) => {
      const locked = await this.factors.lock(tx, factor.id);
      // A code already accepted (or an older one) is a replay.
      if (!locked || (locked.last_used_step !== null && step <= Number(locked.last_used_step))) throw invalid();
      if (!(await this.factors.consumeChallenge(tx, challenge.id)))
        throw new AuthError(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
      await this.factors.markVerified(tx, factor.id, step);
      await this.sessions.upgradeToAal2(tx, caller.session.id, factor.id, { method: 'totp', timestamp: Math.floor(Date.now() / 1000) });
      await this.sessions.deleteAal1OfUser(tx, caller.user.id, caller.session.id);
      await this.factors.deleteOtherUnverified(tx, caller.user.id, factor.id);
      const user = (await this.users.findById(caller.user.id, tx))!;
      return this.tokens.reissueForSession(tx, user, caller.session.id);
    });
    await attempt.succeeded();
    return response;
  }

  /** DELETE /factors/{id}: a verified factor can only be removed from an aal2 session. */
  async unenroll(caller: Caller, factorId: string) {
    const factor = await this.ownedFactor(caller, factorId);
    if (factor.status === 'verified' && caller.session.aal !== 'aal2') {
      throw new AuthError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
    }
    await this.ds.transaction(async (tx) => {
      await this.factors.delete(tx, factor.id);
      await this.sessions.downgradeFactorSessions(tx, factor.id);
    });
    return { id: factor.id };
  }

  private async ownedFactor(caller: Caller, factorId: string) {
    const factor = isUuid(factorId) ? await this.factors.findOwned(caller.user.id, factorId) : null;
    if (!factor) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
    return factor;
  }
}
