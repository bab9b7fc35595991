import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CHANNEL_BIT } from '../deliveries/eligibility.sql';

@Injectable()
export class PushSubscriptionsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * One row per endpoint: a browser re-subscribing (or changing hands) updates its row and starts afresh. Past
   * `perUser` the user's subscriptions registered longest ago go, in the same transaction (the user's rows are
   * locked first, so two browsers registering at once cannot both stay over the cap).
   */
  async upsert(s: { userId: string; endpoint: string; p256dh: string; auth: string; userAgent: string | null }, perUser: number): Promise<{ id: string }> {
    return this.ds.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('push-subscriptions:' || $1))`, [s.userId]);
      const [row] = await tx.query(
        `INSERT INTO alerts.push_subscriptions (user_id, endpoint, p256dh, auth, user_agent) VALUES ($1,$2,$3,$4,$5)
         ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
           user_agent = excluded.user_agent, registered_at = now(), failures = 0, failing_since = NULL
         RETURNING id`,
        [s.userId, s.endpoint, s.p256dh, s.auth, s.userAgent],
      );
      await tx.query(
        `DELETE FROM alerts.push_subscriptions WHERE user_id = $1 AND id IN (
           SELECT id FROM alerts.push_subscriptions WHERE user_id = $1 ORDER BY registered_at DESC, id DESC OFFSET $2)`,
        [s.userId, perUser],
      );
      return row;
    });
  }

  async remove(userId: string, endpoint: string): Promise<number> {
    const [, count] = await this.ds.query(`DELETE FROM alerts.push_subscriptions WHERE user_id = $1 AND endpoint = $2`, [userId, endpoint]);
    return count;
  }

  async countForUser(userId: string): Promise<number> {
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n FROM alerts.push_subscriptions WHERE user_id = $1`, [userId]);
    return n;
  }

  async countAll(): Promise<number> {
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n FROM alerts.push_subscriptions`);
    return n;
  }

  /**
   * The browsers a push would go to now, as the dispatcher picks them: people with push on in their preferences
   * (channel_mask's push bit, the rule reachableOn reads), at most `perUser` each, those registered last (pushTargets).
   * `subscribed` counts every stored subscription, so a screen can say how many of them cannot receive and why.
   */
  async receivers(perUser: number): Promise<{ browsers: number; people: number; subscribed: number; failing: number }> {
    const [row] = await this.ds.query(
      `WITH s AS (
         SELECT s.user_id, (s.failures > 0 OR s.failing_since IS NOT NULL) AS failing,
                row_number() OVER (PARTITION BY s.user_id ORDER BY s.registered_at DESC, s.id DESC) AS rank
         FROM alerts.push_subscriptions s)
       SELECT count(*) FILTER (WHERE r.ok)::int AS browsers, count(DISTINCT s.user_id) FILTER (WHERE r.ok)::int AS people,
              count(*)::int AS subscribed, count(*) FILTER (WHERE r.ok AND s.failing)::int AS failing
       FROM s
       LEFT JOIN alerts.user_preferences p ON p.user_id = s.user_id
       CROSS JOIN LATERAL (SELECT coalesce(p.channel_mask & ${CHANNEL_BIT.push} <> 0, false) AND s.rank <= $1 AS ok) r`,
      [perUser],
    );
    return row;
  }
}
