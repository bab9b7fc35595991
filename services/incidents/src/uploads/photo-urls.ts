import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { IncidentsEnv } from '../config/env.dto';
import { uploadUrl } from './upload-keys';

/** The HMAC key of signed photo URLs (from INCIDENTS_PHOTO_URL_KEY or the database; see uploads.module.ts). */
export const PHOTO_URL_KEY = Symbol('PHOTO_URL_KEY');

/** Injectable so specs can move time; seconds since the epoch. */
export const CLOCK = Symbol('CLOCK');
export type Clock = () => number;

/**
 * URLs of stored photos. A published photo has a plain URL anyone may load. An unpublished one (a pending or
 * rejected report, an upload not yet attached) gets a signed, expiring URL for the people allowed to see it: an
 * <img> sends no bearer token, and a signed URL keeps working in one without exposing the photo to anyone else.
 */
@Injectable()
export class PhotoUrls {
  private readonly ttl: number;

  constructor(
    @Inject(PHOTO_URL_KEY) private readonly key: Buffer,
    env: IncidentsEnv,
    @Inject(CLOCK) private readonly now: Clock,
  ) {
    this.ttl = env.INCIDENTS_PHOTO_URL_TTL_SECONDS;
  }

  plain(path: string): string {
    return uploadUrl(path);
  }

  /**
   * Expiry rounded up to the end of the next window: every response within one window gives the same URL, so a
   * browser does not fetch the photo again each time a list is reloaded. Valid for between TTL and 2 × TTL.
   */
  signed(path: string): string {
    const expires = (Math.floor(this.now() / this.ttl) + 2) * this.ttl;
    return `${uploadUrl(path)}?expires=${expires}&token=${this.sign(path, expires)}`;
  }

  /** Seconds the signature still holds for this path, or null when it is missing, altered or expired. */
  verify(path: string, expires: unknown, signature: unknown): number | null {
    if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(expires)) return null;
    const left = Number(expires) - this.now();
    if (left <= 0) return null;
    const expected = Buffer.from(this.sign(path, Number(expires)));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected) ? left : null;
  }

  private sign(path: string, expires: number): string {
    // versioned and newline-separated: no other message this key signs can be read as a photo grant
    return createHmac('sha256', this.key).update(`photo-url:v1\n${path}\n${expires}`).digest('base64url');
  }
}
