import { IsIn, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { BaseEnv, boolRule, intRule, portRule, RateRule, Rules } from '@beacon/common';

export class IncidentsEnv extends BaseEnv {
  @Rules(...portRule('INCIDENTS_PORT'))
  INCIDENTS_PORT: number = 3002;

  /** Where uploaded photos live: 'local' (a directory on disk) or 's3' (any S3-compatible store). */
  @IsIn(['local', 's3'], { message: 'UPLOADS_DRIVER must be local or s3' })
  UPLOADS_DRIVER: 'local' | 's3' = 'local';

  /** The local driver's directory (created if missing). Relative paths start from the working directory. */
  @IsString({ message: 'UPLOADS_DIR must be a directory path' })
  UPLOADS_DIR = 'var/uploads';

  /** S3 endpoint, e.g. http://127.0.0.1:9000 for MinIO; empty means AWS itself. */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'UPLOADS_S3_ENDPOINT must be an http(s) URL, e.g. http://127.0.0.1:9000' })
  UPLOADS_S3_ENDPOINT?: string;

  @Matches(/^[a-z0-9-]{2,40}$/, { message: 'UPLOADS_S3_REGION must be a region name, e.g. us-east-1' })
  UPLOADS_S3_REGION = 'us-east-1';

  /** Required with UPLOADS_DRIVER=s3. */
  @ValidateIf((env: IncidentsEnv) => env.UPLOADS_DRIVER === 's3')
  @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'UPLOADS_S3_BUCKET must be a bucket name (required when UPLOADS_DRIVER=s3)' })
  UPLOADS_S3_BUCKET?: string;

  @ValidateIf((env: IncidentsEnv) => env.UPLOADS_DRIVER === 's3')
  @IsString({ message: 'UPLOADS_S3_ACCESS_KEY_ID is required when UPLOADS_DRIVER=s3' })
  UPLOADS_S3_ACCESS_KEY_ID?: string;

  @ValidateIf((env: IncidentsEnv) => env.UPLOADS_DRIVER === 's3')
  @IsString({ message: 'UPLOADS_S3_SECRET_ACCESS_KEY is required when UPLOADS_DRIVER=s3' })
  UPLOADS_S3_SECRET_ACCESS_KEY?: string;

  /** Path-style addressing (bucket in the path), which MinIO and most self-hosted stores need. */
  @Rules(...boolRule('UPLOADS_S3_FORCE_PATH_STYLE'))
  UPLOADS_S3_FORCE_PATH_STYLE: boolean = true;

  /**
   * A reporter with at least this many verified reports, and no rejected one within
   * INCIDENT_AUTO_APPROVE_REJECT_DAYS, has new reports verified at once. 0 turns auto-approval off.
   */
  @Rules(...intRule('INCIDENT_AUTO_APPROVE_VERIFIED', 0, 1000))
  INCIDENT_AUTO_APPROVE_VERIFIED: number = 3;

  @Rules(...intRule('INCIDENT_AUTO_APPROVE_REJECT_DAYS', 1, 3650))
  INCIDENT_AUTO_APPROVE_REJECT_DAYS: number = 90;

  /** Run the inbox worker (points, moderation notices) in this process. Turn off to run API-only replicas. */
  @Rules(...boolRule('INCIDENTS_WORKER_ENABLED'))
  INCIDENTS_WORKER_ENABLED: boolean = true;

  @Rules(...intRule('INCIDENTS_WORKER_CONCURRENCY', 1, 100))
  INCIDENTS_WORKER_CONCURRENCY: number = 4;

  /**
   * Key of the signed URLs through which the reporter and admins load photos of unpublished reports: base64 of at
   * least 32 random bytes (`openssl rand -base64 32`). Unset, a key generated at the first migration and kept in
   * the database is used, so replicas agree without configuration; set it to keep the key out of the database.
   */
  @IsOptional()
  @Matches(/^[A-Za-z0-9+/]{43,}={0,2}$/, { message: 'INCIDENTS_PHOTO_URL_KEY must be at least 32 bytes in base64 (openssl rand -base64 32)' })
  INCIDENTS_PHOTO_URL_KEY?: string;

  /** A signed photo URL stays valid for between this and twice this (one URL per window, so browsers can cache it). */
  @Rules(...intRule('INCIDENTS_PHOTO_URL_TTL_SECONDS', 60, 86400))
  INCIDENTS_PHOTO_URL_TTL_SECONDS: number = 3600;

  // Limits per user and per client address, `<requests>/<seconds>`, shared by all replicas through Redis. The
  // per-address limits are looser: many people can share one address (mobile carriers, offices, campuses).

  /** New reports: a witness may report a few things in an hour, not dozens. */
  @RateRule('INCIDENTS_RATE_REPORTS_USER') INCIDENTS_RATE_REPORTS_USER = '10/3600';
  @RateRule('INCIDENTS_RATE_REPORTS_IP') INCIDENTS_RATE_REPORTS_IP = '60/3600';
  /**
   * Refused reports (400: bad input) count against these instead of the two above, so someone who corrects a form is
   * not locked out by their mistakes; a client that keeps sending bad reports is still stopped.
   */
  @RateRule('INCIDENTS_RATE_REPORTS_REFUSED_USER') INCIDENTS_RATE_REPORTS_REFUSED_USER = '30/3600';
  @RateRule('INCIDENTS_RATE_REPORTS_REFUSED_IP') INCIDENTS_RATE_REPORTS_REFUSED_IP = '120/3600';
  /** Photo uploads: one per report or post, with room for choosing another photo. */
  @RateRule('INCIDENTS_RATE_UPLOADS_USER') INCIDENTS_RATE_UPLOADS_USER = '30/3600';
  @RateRule('INCIDENTS_RATE_UPLOADS_IP') INCIDENTS_RATE_UPLOADS_IP = '120/3600';
  /** Community posts. */
  @RateRule('INCIDENTS_RATE_POSTS_USER') INCIDENTS_RATE_POSTS_USER = '10/3600';
  @RateRule('INCIDENTS_RATE_POSTS_IP') INCIDENTS_RATE_POSTS_IP = '60/3600';
  /** Comments: a lively conversation, not a flood. */
  @RateRule('INCIDENTS_RATE_COMMENTS_USER') INCIDENTS_RATE_COMMENTS_USER = '30/600';
  @RateRule('INCIDENTS_RATE_COMMENTS_IP') INCIDENTS_RATE_COMMENTS_IP = '150/600';
  /** Likes (and unlikes): someone liking while scrolling makes a few a minute; a script makes hundreds. */
  @RateRule('INCIDENTS_RATE_LIKES_USER') INCIDENTS_RATE_LIKES_USER = '120/600';
  @RateRule('INCIDENTS_RATE_LIKES_IP') INCIDENTS_RATE_LIKES_IP = '600/600';
}
