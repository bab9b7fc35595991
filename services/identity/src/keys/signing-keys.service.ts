import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import {
  calculateJwkThumbprint, errors, exportJWK, exportPKCS8, generateKeyPair, importPKCS8, JWK, JWTHeaderParameters, KeyLike,
} from 'jose';
import { createPublicKey } from 'node:crypto';
import { IdentityEnv } from '../config/env.dto';

interface KeyRow {
  kid: string;
  private_pem: string;
  public_jwk: JWK;
  retired_at: Date | null;
}

interface LoadedKey {
  kid: string;
  privateKey: KeyLike;
  publicKey: KeyLike;
  jwk: JWK;
  current: boolean;
}

/** Reloading on an unknown kid is throttled, so forged kids cannot turn into database load. */
const RELOAD_COOLDOWN_MS = 10_000;

/**
 * The ES256 keys access tokens are signed with. One current key signs; a retired key stays published in the
 * JWKS (and accepted here) until every token it signed has expired. The key comes from IDENTITY_SIGNING_KEY_PEM
 * or is generated on first start and kept in identity.signing_keys, so replicas and restarts share it.
 */
@Injectable()
export class SigningKeysService implements OnModuleInit {
  private readonly logger = new Logger(SigningKeysService.name);
  private keys = new Map<string, LoadedKey>();
  private current?: LoadedKey;
  private lastReload = 0;

  constructor(private readonly ds: DataSource, private readonly env: IdentityEnv) {}

  async onModuleInit() {
    await this.ds.transaction(async (tx) => {
      // Two replicas starting together must not both generate a key.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('identity.signing_keys'))`);
      if (this.env.IDENTITY_SIGNING_KEY_PEM) await this.installConfiguredKey(tx, this.env.IDENTITY_SIGNING_KEY_PEM);
      else {
        const [row] = await tx.query(`SELECT kid FROM identity.signing_keys WHERE retired_at IS NULL`);
        if (!row) await this.insertNewKey(tx);
      }
    });
    await this.reload();
  }

  /** Retires the current key (it stays published until its tokens expire) and starts signing with a new one. */
  async rotate(): Promise<string> {
    const kid = await this.ds.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('identity.signing_keys'))`);
      await tx.query(`UPDATE identity.signing_keys SET retired_at = now() WHERE retired_at IS NULL`);
      return this.insertNewKey(tx);
    });
    await this.reload();
    return kid;
  }

  signingKey(): { kid: string; key: KeyLike } {
    if (!this.current) throw new Error('No signing key loaded');
    return { kid: this.current.kid, key: this.current.privateKey };
  }

  /** The public keys a verifier may need: the current one and retired ones whose tokens may still be alive. */
  jwks(): { keys: JWK[] } {
    return { keys: [...this.keys.values()].map((k) => k.jwk) };
  }

  /** Key resolver for jose's jwtVerify (through libs/auth's TokenVerifier). */
  readonly resolveKey = async (header: JWTHeaderParameters): Promise<KeyLike> => {
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
      [this.env.IDENTITY_JWT_EXPIRY_SECONDS],
    );
    const keys = new Map<string, LoadedKey>();
    for (const row of rows) {
      const privateKey = await importPKCS8(row.private_pem, 'ES256');
      keys.set(row.kid, {
        kid: row.kid,
        privateKey,
        publicKey: createPublicKey(row.private_pem) as unknown as KeyLike,
        jwk: { ...row.public_jwk, kid: row.kid, alg: 'ES256', use: 'sig', key_ops: ['verify'] },
        current: row.retired_at === null,
      });
    }
    this.keys = keys;
    this.current = [...keys.values()].find((k) => k.current);
  }

  private async insertNewKey(tx: EntityManager): Promise<string> {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    await tx.query(`INSERT INTO identity.signing_keys (kid, private_pem, public_jwk) VALUES ($1, $2, $3)`, [kid, pem, jwk]);
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
      [kid, pem.trim(), jwk],
    );
  }
}
