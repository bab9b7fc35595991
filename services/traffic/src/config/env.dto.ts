import { IsOptional, IsString, Matches } from 'class-validator';
import { BaseEnv, csv, intRule, portRule, Rules } from '@beacon/common';

export class TrafficEnv extends BaseEnv {
  @Rules(...portRule('TRAFFIC_PORT'))
  TRAFFIC_PORT: number = 3007;

  /**
   * Base URL of a 511-style traveler-information API (the ibi511 family: AZ511, 511GA, 511PA...), e.g.
   * https://az511.com. Cameras come from `<url>/api/v2/get/cameras`, events from `<url>/api/v2/get/event`.
   * Empty: no ingest (the seeded data is all there is).
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s?#]+$/, { message: 'TRAFFIC_SOURCE_URL must be an http(s) base URL without query, e.g. https://az511.com' })
  TRAFFIC_SOURCE_URL?: string;

  /** The developer key the 511 platform issued; sent as `key=`. Never logged. */
  @IsOptional()
  @IsString({ message: 'TRAFFIC_SOURCE_KEY must be a string' })
  TRAFFIC_SOURCE_KEY?: string;

  /** Stored as each row's `source`; rows are upserted by (source, source id). */
  @Matches(/^(?!seed$)[a-z0-9][a-z0-9_-]{0,39}$/, {
    message: "TRAFFIC_SOURCE_NAME must be 1 to 40 lowercase letters, digits, dashes or underscores, and not 'seed' (the demo data's source)",
  })
  TRAFFIC_SOURCE_NAME = 'az511';

  /** Hosts the ingest may reach even though they resolve to private addresses (local testing only), comma-separated. */
  @IsOptional()
  @IsString({ message: 'TRAFFIC_SOURCE_ALLOW_HOSTS must be a comma-separated list of hosts' })
  TRAFFIC_SOURCE_ALLOW_HOSTS?: string;

  /** Seconds between two scheduled pulls. */
  @Rules(...intRule('TRAFFIC_INGEST_INTERVAL_SECONDS', 30, 86400))
  TRAFFIC_INGEST_INTERVAL_SECONDS: number = 300;

  /** The source's published rate limit: at most this many calls... */
  @Rules(...intRule('TRAFFIC_SOURCE_RATE_LIMIT', 1, 10000))
  TRAFFIC_SOURCE_RATE_LIMIT: number = 10;

  /** ...per this many seconds (AZ511: 10 calls per 60 s). Shared by every replica through Redis. */
  @Rules(...intRule('TRAFFIC_SOURCE_RATE_WINDOW_SECONDS', 1, 86400))
  TRAFFIC_SOURCE_RATE_WINDOW_SECONDS: number = 60;

  /** Seconds to wait for one response from the source. */
  @Rules(...intRule('TRAFFIC_SOURCE_TIMEOUT_SECONDS', 1, 300))
  TRAFFIC_SOURCE_TIMEOUT_SECONDS: number = 20;

  /** Largest response body accepted from the source, in megabytes. */
  @Rules(...intRule('TRAFFIC_SOURCE_MAX_MB', 1, 200))
  TRAFFIC_SOURCE_MAX_MB: number = 25;

  /**
   * A pull that would mark more than this percentage of a source's active cameras (or events) vanished at once is
   * treated as a source fault: rows are updated but nothing is marked vanished. Applies when 10 or more are active.
   */
  @Rules(...intRule('TRAFFIC_INGEST_MAX_VANISH_PERCENT', 1, 100))
  TRAFFIC_INGEST_MAX_VANISH_PERCENT: number = 50;

  get sourceAllowHosts(): string[] {
    return csv(this.TRAFFIC_SOURCE_ALLOW_HOSTS);
  }
}
