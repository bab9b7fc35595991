import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { calculateJwkThumbprint, CryptoKey, errors, exportJWK, exportPKCS8, generateKeyPair, importPKCS8, JWK, JWTHeaderParameters } from 'jose';
import { createPublicKey, KeyObject } from 'node:crypto';
import { DataKey, rowLabel } from '../common/data-key';
import { IdentityEnv } from '../config/env.dto';

interface KeyRow {
  kid: string;
  private_pem: string;
  public_jwk: JWK;
  retired_at: Date | null;
}

interface LoadedKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: KeyObject;
  jwk: JWK;
  current: boolean;
}

/** Reloading on an unknown kid is throttled, so forged kids cannot turn into database load. */
const RELOAD_COOLDOWN_MS = 10_000;
/** How often each replica checks the key's age, prunes expired keys and reloads (picking up another replica's rotation). */
export const KEY_CHECK_INTERVAL_SECONDS = 3600;

/**
 * The ES256 keys access tokens are signed with. One current key signs; a retired key stays published in the
 * JWKS (and accepted here) until every token it signed has expired, then it is deleted. The key comes from
 * IDENTITY_SIGNING_KEY_PEM or is generated on first start and kept in identity.signing_keys (private part
 * encrypted under IDENTITY_DATA_KEY), so replicas and restarts share it; a generated key is replaced once it is
 * IDENTITY_KEY_ROTATION_DAYS old.
 */
@Injectable()
export class SigningKeysService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SigningKeysService.name);
  private keys = new Map<string, LoadedKey>();
  private current?: LoadedKey;
  private lastReload = 0;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly ds: DataSource,
    private readonly env: IdentityEnv,
    private readonly dataKey: DataKey,
  ) {}

  /**
   * A retired key stays for the tokens it signed (IDENTITY_JWT_EXPIRY_SECONDS), plus one check interval: another
   * replica may go on signing with it until its next reload notices the rotation.
   */
  private get retentionSeconds() {
    return this.env.IDENTITY_JWT_EXPIRY_SECONDS + KEY_CHECK_INTERVAL_SECONDS;
  }

  private get autoRotationDays(): number {
    return this.env.IDENTITY_SIGNING_KEY_PEM ? 0 : this.env.IDENTITY_KEY_ROTATION_DAYS;
  }

  async onModuleInit() {
    await this.ds.transaction(async (tx) => {
      // Two replicas starting together must not both generate (or rotate) a key.
      await this.lock(tx);
      await this.assertReadable(tx);
      if (this.env.IDENTITY_SIGNING_KEY_PEM) await this.installConfiguredKey(tx, this.env.IDENTITY_SIGNING_KEY_PEM);
      else {
        const [row] = await tx.query(`SELECT kid FROM identity.signing_keys WHERE retired_at IS NULL`);
        if (!row) await this.insertNewKey(tx);
        else await this.rotateIfDue(tx);
      }
      await this.encryptLegacyKeys(tx);
      await this.prune(tx);
    });
    await this.reload();
    if (this.env.IDENTITY_SIGNING_KEY_PEM && this.env.IDENTITY_KEY_ROTATION_DAYS > 0) {
      this.logger.log('IDENTITY_SIGNING_KEY_PEM is set: the signing key is not rotated automatically (IDENTITY_KEY_ROTATION_DAYS does not apply)');
    }
    this.timer = setInterval(() => void this.check(), KEY_CHECK_INTERVAL_SECONDS * 1000);
    this.timer.unref();
  }

  async onModuleDestroy() {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /**
   * The periodic check: rotates the key if it is due, deletes keys whose tokens have all expired and reloads.
   * Failures (e.g. the database briefly away) are logged; the next check retries.
   */
  check(): Promise<void> {
    this.running ??= (async () => {
      try {
        await this.ds.transaction(async (tx) => {
          await this.lock(tx);
          await this.rotateIfDue(tx);
          await this.prune(tx);
        });
        await this.reload();
      } catch (e) {
        this.logger.warn(`signing key check failed: ${(e as Error).message}`);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Retires the current key (it stays published until its tokens expire) and starts signing with a new one. */
  async rotate(): Promise<string> {
    const kid = await this.ds.transaction(async (tx) => {
      await this.lock(tx);
      return this.replaceCurrent(tx);
    });
    await this.reload();
    return kid;
  }

  signingKey(): { kid: string; key: CryptoKey } {
    if (!this.current) throw new Error('No signing key loaded');
    return { kid: this.current.kid, key: this.current.privateKey };
  }

  /** The public keys a verifier may need: the current one and retired ones whose tokens may still be alive. */
  jwks(): { keys: JWK[] } {
    return { keys: [...this.keys.values()].map((k) => k.jwk) };
  }

  /** Key resolver for jose's jwtVerify (through libs/auth's TokenVerifier). */
  readonly resolveKey = async (header: JWTHeaderParameters): Promise<KeyObject> => {
    if (header.alg !== 'ES256' || typeof header.kid !== 'string') throw new errors.JWKSNoMatchingKey();
    let key = this.keys.get(header.kid);
    if (!key && Date.now() - this.lastReload > RELOAD_COOLDOWN_MS) {
      await this.reload();
      key = this.keys.get(header.kid);
    }
    if (!key) throw new errors.JWKSNoMatchingKey();
    return key.publicKey;
  };

  private async reload() {
    this.lastReload = Date.now();
    const rows: KeyRow[] = await this.ds.query(
      `SELECT kid, private_pem, public_jwk, retired_at FROM identity.signing_keys
        WHERE retired_at IS NULL OR retired_at > now() - make_interval(secs => $1)
        ORDER BY created_at DESC`,
      [this.retentionSeconds],
    );
    const keys = new Map<string, LoadedKey>();
    for (const row of rows) {
      const pem = this.dataKey.open(row.private_pem, rowLabel('signing_keys', row.kid));
      const privateKey = await importPKCS8(pem, 'ES256');
      keys.set(row.kid, {
        kid: row.kid,
        privateKey,
        publicKey: createPublicKey(pem),
        jwk: { ...row.public_jwk, kid: row.kid, alg: 'ES256', use: 'sig', key_ops: ['verify'] },
        current: row.retired_at === null,
      });
    }
    this.keys = keys;
    this.current = [...keys.values()].find((k) => k.current);
  }

  /** Serialises key changes across replicas for the rest of the transaction. */
  private async lock(tx: EntityManager) {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('identity.signing_keys'))`);
  }

  private async replaceCurrent(tx: EntityManager): Promise<string> {
    await tx.query(`UPDATE identity.signing_keys SET retired_at = now() WHERE retired_at IS NULL`);
    return this.insertNewKey(tx);
  }

  /** Under the lock, so the age is read after any other replica's rotation: only one replica rotates. */
  private async rotateIfDue(tx: EntityManager) {
    const days = this.autoRotationDays;
    if (days <= 0) return;
    const [due] = await tx.query(`SELECT kid FROM identity.signing_keys WHERE retired_at IS NULL AND created_at <= now() - make_interval(days => $1)`, [days]);
    if (!due) return;
    const kid = await this.replaceCurrent(tx);
    this.logger.log(`rotated signing key ${due.kid} (older than ${days} days) to ${kid}`);
  }

  /** Deletes retired keys no unexpired token can have been signed with. */
  private async prune(tx: EntityManager) {
    const [, count] = await tx.query(`DELETE FROM identity.signing_keys WHERE retired_at IS NOT NULL AND retired_at <= now() - make_interval(secs => $1)`, [
      this.retentionSeconds,
    ]);
    if (count > 0) this.logger.log(`deleted ${count} retired signing key(s) whose tokens have expired`);
  }

  /** Fails (one line naming IDENTITY_DATA_KEY) before anything is written when stored keys cannot be decrypted. */
  private async assertReadable(tx: EntityManager) {
    const rows: { kid: string; private_pem: string }[] = await tx.query(`SELECT kid, private_pem FROM identity.signing_keys WHERE private_pem LIKE 'enc:%'`);
    for (const row of rows) this.dataKey.open(row.private_pem, rowLabel('signing_keys', row.kid));
  }

  /** Keys stored before IDENTITY_DATA_KEY was set are encrypted in place. */
  private async encryptLegacyKeys(tx: EntityManager) {
    if (!this.dataKey.configured) return;
    const rows: { kid: string; private_pem: string }[] = await tx.query(
      `SELECT kid, private_pem FROM identity.signing_keys WHERE private_pem NOT LIKE 'enc:%'`,
    );
    for (const row of rows) {
      await tx.query(`UPDATE identity.signing_keys SET private_pem = $2 WHERE kid = $1`, [
        row.kid,
        this.dataKey.seal(row.private_pem, rowLabel('signing_keys', row.kid)),
      ]);
    }
    if (rows.length) this.logger.log(`encrypted ${rows.length} stored signing key(s) with IDENTITY_DATA_KEY`);
  }

  private async insertNewKey(tx: EntityManager): Promise<string> {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    await tx.query(`INSERT INTO identity.signing_keys (kid, private_pem, public_jwk) VALUES ($1, $2, $3)`, [
      kid,
      this.dataKey.seal(pem, rowLabel('signing_keys', kid)),
      jwk,
    ]);
    this.logger.log(`generated signing key ${kid}`);
    return kid;
  }

  private async installConfiguredKey(tx: EntityManager, pem: string) {
    const publicJwk = await exportJWK(createPublicKey(pem));
    if (publicJwk.crv !== 'P-256') throw new Error('IDENTITY_SIGNING_KEY_PEM must be an EC P-256 key (ES256)');
    const jwk = { kty: publicJwk.kty, crv: publicJwk.crv, x: publicJwk.x, y: publicJwk.y };
    const kid = await calculateJwkThumbprint(jwk);
    await tx.query(`UPDATE identity.signing_keys SET retired_at = now() WHERE retired_at IS NULL AND kid <> $1`, [kid]);
    await tx.query(
      `INSERT INTO identity.signing_keys (kid, private_pem, public_jwk) VALUES ($1, $2, $3)
       ON CONFLICT (kid) DO UPDATE SET retired_at = NULL`,
      [kid, this.dataKey.seal(pem.trim(), rowLabel('signing_keys', kid)), jwk],
    );
  }
}
