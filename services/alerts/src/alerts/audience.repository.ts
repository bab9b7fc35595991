import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DELIVERY_CHANNELS, type DeliveryChannel } from '@beacon/contracts';
import { streamRows } from '../deliveries/cursor';
import { CHANNEL_BIT, EligibilityAlert, eligiblePredicate, eligibleUsersSql, holdUntilSql, reachableOn, SqlParams } from '../deliveries/eligibility.sql';

/** Users per group handed to the caller (each group is one message to the gateways, see LiveEvents.toUsers). */
const AUDIENCE_GROUP = 1000;

/**
 * The users an alert concerns, the one notion every live event about an alert is sent to: those with a delivery
 * row, and those eligible by their current preferences whether or not a channel reaches them (the open screen is
 * a channel too; me/alerts lists the alert for them). The dispatcher's alert:new, a cancellation's and an
 * expiry's alert:updated all read it here, so a screen told of an alert is told how it ends.
 */
@Injectable()
export class AudienceRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Streams the audience once per user, in groups, never as one array. With `heldAt`, each user comes with
   * whether the alert is held for them at that instant, by the rule that gives deliveries their not_before
   * (holdUntilSql), so a user with deliveries is held exactly when all of them wait; without it, held is false.
   * Users with a delivery row who are no longer eligible (preferences changed since) are read from the alert's
   * deliveries through the unique key, each checked against their preferences row by primary key.
   * Returns the number of users.
   */
  async stream(alert: EligibilityAlert & { id: string }, onUsers: (userIds: string[], held: boolean) => void, heldAt?: Date): Promise<number> {
    const params = new SqlParams();
    const eligible = eligibleUsersSql(alert, params);
    const held = heldAt ? `coalesce(${holdUntilSql(alert, params, heldAt)} > ${params.bind('at', heldAt.toISOString(), 'timestamptz')}, false)` : 'false';
    const sql = `SELECT e.user_id, ${held} AS held FROM (${eligible}) e
      UNION ALL
      SELECT d.user_id, false FROM (SELECT DISTINCT user_id FROM alerts.alert_deliveries WHERE alert_id = ${params.bind('alert', alert.id, 'uuid')}) d
      WHERE NOT EXISTS (SELECT 1 FROM alerts.user_preferences p WHERE p.user_id = d.user_id AND ${eligiblePredicate(alert, params)})`;
    const groups: Record<'held' | 'now', string[]> = { held: [], now: [] };
    let n = 0;
    await streamRows<{ user_id: string; held: boolean }>(this.ds, sql, params.values, (rows) => {
      for (const r of rows) {
        const group = groups[r.held ? 'held' : 'now'];
        group.push(r.user_id);
        if (group.length >= AUDIENCE_GROUP) onUsers(group.splice(0), r.held);
      }
      n += rows.length;
    });
    if (groups.now.length) onUsers(groups.now, false);
    if (groups.held.length) onUsers(groups.held, true);
    return n;
  }

  /**
   * Whom `alert` would reach on `channels` if sent at `at`: the dispatcher's eligibility and per-channel
   * reachability (the same SQL its delivery rows are written with) and its holds, counted, nothing written.
   */
  async preview(alert: EligibilityAlert, channels: readonly DeliveryChannel[], at: Date): Promise<AudienceCounts> {
    const params = new SqlParams();
    const eligible = eligibleUsersSql(alert, params);
    const held = `coalesce(${holdUntilSql(alert, params, at)} > ${params.bind('at', at.toISOString(), 'timestamptz')}, false)`;
    const reach = DELIVERY_CHANNELS.map((c) => `(${channels.includes(c) ? reachableOn(c) : 'false'}) AS ${c}`).join(', ');
    const anyChannel = DELIVERY_CHANNELS.join(' OR ');
    const perChannel = DELIVERY_CHANNELS.map((c) => `count(*) FILTER (WHERE ${c})::int AS ${c}, count(*) FILTER (WHERE ${c} AND held)::int AS ${c}_held`).join(
      ', ',
    );
    const [row] = await this.ds.query(
      `WITH e AS (${eligible}),
       r AS (SELECT ${reach}, ${held} AS held,
                    e.channel_mask & ${CHANNEL_BIT.push} <> 0 AND NOT EXISTS (SELECT 1 FROM alerts.push_subscriptions s WHERE s.user_id = e.user_id) AS no_device
             FROM e)
       SELECT count(*)::int AS concerned,
              count(*) FILTER (WHERE ${anyChannel})::int AS recipients,
              count(*) FILTER (WHERE (${anyChannel}) AND held)::int AS held,
              count(*) FILTER (WHERE NOT (${anyChannel}))::int AS no_channel,
              count(*) FILTER (WHERE ${channels.includes('push') ? 'no_device' : 'false'})::int AS no_device,
              ${perChannel}
       FROM r`,
      params.values,
    );
    return {
      concerned: row.concerned,
      recipients: row.recipients,
      held: row.held,
      noChannel: row.no_channel,
      noDevice: row.no_device,
      channels: Object.fromEntries(channels.map((c) => [c, { recipients: row[c], held: row[`${c}_held`] }])),
    };
  }
}

export interface AudienceCounts {
  concerned: number;
  recipients: number;
  held: number;
  noChannel: number;
  noDevice: number;
  channels: Partial<Record<DeliveryChannel, { recipients: number; held: number }>>;
}
