import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type AlertAreaPart, type AudienceByTarget, DELIVERY_CHANNELS, type DeliveryChannel } from '@beacon/contracts';
import { polygonCentroid } from '@beacon/geo';
import { streamRows } from '../deliveries/cursor';
import { toPgPolygon } from '../deliveries/polygon-column';
import {
  CHANNEL_BIT,
  EligibilityAlert,
  eligiblePredicate,
  eligibleUsersSql,
  emailHoldUntilSql,
  hasArea,
  holdUntilSql,
  reachableOn,
  SqlParams,
} from '../deliveries/eligibility.sql';

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
  async stream(
    alert: EligibilityAlert & { id: string },
    onUsers: (userIds: string[], held: boolean, language: string | null) => void,
    heldAt?: Date,
  ): Promise<number> {
    const params = new SqlParams();
    const eligible = eligibleUsersSql(alert, params);
    const held = heldAt ? `coalesce(${holdUntilSql(alert, params, heldAt)} > ${params.bind('at', heldAt.toISOString(), 'timestamptz')}, false)` : 'false';
    // Each user's language too, so that their screen is told in it (issue #38: a Spanish reader's all-clear is Spanish).
    const sql = `SELECT e.user_id, ${held} AS held, lp.language FROM (${eligible}) e
      LEFT JOIN alerts.user_preferences lp ON lp.user_id = e.user_id
      UNION ALL
      SELECT d.user_id, false, p.language FROM (SELECT DISTINCT user_id FROM alerts.alert_deliveries WHERE alert_id = ${params.bind('alert', alert.id, 'uuid')}) d
      LEFT JOIN alerts.user_preferences p ON p.user_id = d.user_id
      WHERE NOT EXISTS (SELECT 1 FROM alerts.user_preferences q WHERE q.user_id = d.user_id AND ${eligiblePredicate(alert, params, 'q')})`;
    // one group per (held, language): each is told in one event
    const groups = new Map<string, { held: boolean; language: string | null; ids: string[] }>();
    let n = 0;
    await streamRows<{ user_id: string; held: boolean; language: string | null }>(this.ds, sql, params.values, (rows) => {
      for (const r of rows) {
        const key = `${r.held}:${r.language ?? ''}`;
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { held: r.held, language: r.language, ids: [] }));
        group.ids.push(r.user_id);
        if (group.ids.length >= AUDIENCE_GROUP) onUsers(group.ids.splice(0), r.held, r.language);
      }
      n += rows.length;
    });
    for (const g of groups.values()) if (g.ids.length) onUsers(g.ids, g.held, g.language);
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
    // The e-mail digest's hold, read (by primary key) only for those the alert's e-mail reaches.
    const emailHeld = channels.includes('email')
      ? `CASE WHEN ${reachableOn('email')} THEN coalesce(${emailHoldUntilSql(alert, params, at)} > ${params.bind('at', at.toISOString(), 'timestamptz')}, false) ELSE false END`
      : 'false';
    const reach = DELIVERY_CHANNELS.map((c) => `(${channels.includes(c) ? reachableOn(c) : 'false'}) AS ${c}`).join(', ');
    const anyChannel = DELIVERY_CHANNELS.join(' OR ');
    const perChannel = DELIVERY_CHANNELS.map(
      (c) => `count(*) FILTER (WHERE ${c})::int AS ${c}, count(*) FILTER (WHERE ${c} AND ${c === 'email' ? 'email_held' : 'held'})::int AS ${c}_held`,
    ).join(', ');
    // A person is told later when every channel that reaches them waits: their own hold, or only an e-mail that does.
    const waits = `(held OR (email_held AND NOT (${DELIVERY_CHANNELS.filter((c) => c !== 'email').join(' OR ')})))`;
    // SMS on with a number that replied STOP (the mask leaves such a number out of SMS): read by primary key, and only
    // for the people none of the alert's channels reaches (a CASE is evaluated lazily), who are few when it reaches most.
    const stopped = channels.includes('sms')
      ? `CASE WHEN ${anyChannel} THEN false ELSE EXISTS (
           SELECT 1 FROM alerts.user_preferences q WHERE q.user_id = r.user_id AND q.sms_stopped AND q.sms_enabled AND q.phone_number IS NOT NULL) END`
      : 'false';
    const [row] = await this.ds.query(
      `WITH e AS (${eligible}),
       r AS (SELECT ${reach}, ${held} AS held, ${emailHeld} AS email_held,
                    e.channel_mask & ${CHANNEL_BIT.push} <> 0 AND NOT EXISTS (SELECT 1 FROM alerts.push_subscriptions s WHERE s.user_id = e.user_id) AS no_device,
                    e.user_id
             FROM e)
       SELECT count(*)::int AS concerned,
              count(*) FILTER (WHERE ${anyChannel})::int AS recipients,
              count(*) FILTER (WHERE (${anyChannel}) AND ${waits})::int AS held,
              count(*) FILTER (WHERE NOT (${anyChannel}))::int AS no_channel,
              count(*) FILTER (WHERE ${channels.includes('push') ? `no_device AND NOT (${anyChannel})` : 'false'})::int AS no_device,
              count(*) FILTER (WHERE ${stopped})::int AS sms_stopped,
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
      ...(channels.includes('sms') ? { smsStopped: row.sms_stopped } : {}),
      channels: channelCounts(channels, row),
    };
  }

  /**
   * How many people each part of what `alert` targets concerns on its own (issue #42; AudienceByTarget): its area (null
   * without one), each part of an area of several (each counted as a one-part alert of that part is), and each contact
   * group that still exists, in the alert's order: its members with a preferences row (those the dispatch can write
   * rows for), of them external contacts. Someone in two parts is counted in each.
   */
  async byTarget(alert: EligibilityAlert): Promise<AudienceByTarget> {
    const areaOnly: EligibilityAlert = { ...alert, group_ids: [] };
    const area = hasArea(alert) ? await this.concerned(areaOnly) : null;
    let areaParts: number[] | undefined;
    if (area !== null && alert.area_parts?.length) {
      // One after the other: an area has up to 50 parts, each a read of its own strips, and the pool is shared.
      areaParts = [];
      for (const part of alert.area_parts) areaParts.push(await this.concerned({ ...areaOnly, ...onePart(part) }));
    }
    const groups: { id: string; name: string; users: number; external: number }[] = alert.group_ids?.length
      ? await this.ds.query(
          `SELECT g.id, g.name,
                  (SELECT count(*) FROM alerts.contact_group_users u JOIN alerts.user_preferences p ON p.user_id = u.user_id WHERE u.group_id = g.id)::int AS users,
                  (SELECT count(*) FROM alerts.external_contacts c JOIN alerts.user_preferences p ON p.user_id = c.id WHERE c.group_id = g.id)::int AS external
           FROM alerts.contact_groups g WHERE g.id = ANY($1::uuid[]) ORDER BY array_position($1::uuid[], g.id)`,
          [alert.group_ids],
        )
      : [];
    return {
      area,
      ...(areaParts ? { areaParts } : {}),
      groups: groups.map((g) => ({ id: g.id, name: g.name, concerned: g.users + g.external, external: g.external })),
    };
  }

  /** How many people `alert` concerns (eligibleUsersSql), reached by a channel or not. */
  private async concerned(alert: EligibilityAlert): Promise<number> {
    const params = new SqlParams();
    const [row] = await this.ds.query(`SELECT count(*)::int AS n FROM (${eligibleUsersSql(alert, params)}) e`, params.values);
    return row.n;
  }

  /**
   * Whom an update of `alert` to `next` (its severity and area after the update) would tell, per person and channel
   * by DeliveriesRepository.createRevision's plan: on each channel of the alert, whoever it reached there (their last
   * message on it not being that they left the area) is told (the update, or that they left it), and whoever `next`
   * concerns and that channel reaches (the alert as new, or a delivery of it still on its way). In people: those still
   * concerned that it reached, those it reached whom `next` leaves out, those newly concerned.
   */
  async updatePreview(alertId: string, next: EligibilityAlert, channels: readonly DeliveryChannel[], at: Date): Promise<UpdateCounts> {
    const params = new SqlParams();
    const eligible = eligibleUsersSql(next, params);
    const inside = DELIVERY_CHANNELS.map((c) => `SELECT e.user_id, '${c}' AS channel FROM e WHERE ${channels.includes(c) ? reachableOn(c) : 'false'}`);
    const [row] = await this.ds.query(
      `WITH e AS (${eligible}),
       reached AS (
         SELECT l.user_id, l.channel FROM (${lastReachedSql(params.bind('alert', alertId, 'uuid'))}) l
         WHERE l.kind <> 'left_area'),
       told AS (${inside.join(' UNION ')} UNION SELECT user_id, channel FROM reached),
       people AS (
         SELECT t.user_id, array_agg(t.channel) AS channels,
                EXISTS (SELECT 1 FROM e WHERE e.user_id = t.user_id) AS concerned,
                EXISTS (SELECT 1 FROM reached r WHERE r.user_id = t.user_id) AS reached
         FROM told t GROUP BY t.user_id)
       SELECT ${toldCountsSql(next, params, at)},
              count(*) FILTER (WHERE t.concerned AND t.reached)::int AS still_in_area,
              count(*) FILTER (WHERE NOT t.concerned)::int AS left_area,
              count(*) FILTER (WHERE t.concerned AND NOT t.reached)::int AS newly_concerned
       FROM people t LEFT JOIN alerts.user_preferences e ON e.user_id = t.user_id`,
      params.values,
    );
    return {
      recipients: row.recipients,
      held: row.held,
      channels: channelCounts(channels, row),
      told: { stillInArea: row.still_in_area, leftArea: row.left_area, newlyConcerned: row.newly_concerned },
    };
  }

  /**
   * Whom the all-clear of `alert` would tell, by createRevision's rule: everyone it reached, on each channel it reached
   * them on (whatever that last message was), held like any delivery but never as urgent as a critical alert.
   */
  async allClearPreview(alert: Pick<EligibilityAlert, 'severity' | 'source'> & { id: string; channels: readonly DeliveryChannel[] }, at: Date) {
    const params = new SqlParams();
    const calm = { severity: alert.severity === 'critical' ? ('high' as const) : alert.severity, source: alert.source };
    const [row] = await this.ds.query(
      `WITH people AS (
         SELECT l.user_id, array_agg(l.channel) AS channels FROM (${lastReachedSql(params.bind('alert', alert.id, 'uuid'))}) l GROUP BY l.user_id)
       SELECT ${toldCountsSql(calm, params, at)} FROM people t LEFT JOIN alerts.user_preferences e ON e.user_id = t.user_id`,
      params.values,
    );
    return { recipients: row.recipients as number, held: row.held as number, channels: channelCounts(alert.channels, row) };
  }

  /** The people whose deliveries of the alert failed on `channel`: whom "Retry failed" sends to again (at once, never held). */
  async failedPeople(alertId: string, channel: DeliveryChannel): Promise<number> {
    const [row] = await this.ds.query(
      `SELECT count(DISTINCT user_id)::int AS n FROM alerts.alert_deliveries WHERE alert_id = $1 AND channel = $2 AND status = 'failed'`,
      [alertId, channel],
    );
    return row.n;
  }

  /**
   * The people a fallback on `channel` would send the alert to (DeliveriesRepository.createFallback): concerned by its
   * rule now, reached by nothing yet, `channel` reaches them, and they have no first delivery on it already (a failed
   * one is for "Retry failed"). At once, never held.
   */
  async unreachedPeople(alert: AudienceAlertLike, channel: DeliveryChannel): Promise<number> {
    const params = new SqlParams();
    const eligible = eligibleUsersSql(alert, params);
    const alertId = params.bind('alert', alert.id, 'uuid');
    const [row] = await this.ds.query(
      `WITH e AS (${eligible})
       SELECT count(*)::int AS n FROM e
       WHERE ${reachableOn(channel)}
         AND NOT EXISTS (SELECT 1 FROM alerts.alert_deliveries d WHERE d.alert_id = ${alertId} AND d.user_id = e.user_id
                         AND (d.status IN ('sent', 'delivered', 'read') OR (d.channel = ${params.bind('channel', channel, 'text')} AND d.round = 0)))`,
      params.values,
    );
    return row.n;
  }
}

type AudienceAlertLike = EligibilityAlert & { id: string };

/** One part of an area of several as the columns of a one-part area (alert-area.ts storedSingle). */
const onePart = (part: AlertAreaPart): Pick<EligibilityAlert, 'lat' | 'lng' | 'radius_km' | 'area_polygon' | 'area_parts'> =>
  part.type === 'circle'
    ? { lat: part.lat, lng: part.lng, radius_km: part.radiusKm, area_polygon: null, area_parts: null }
    : { ...polygonCentroid(part.points), radius_km: null, area_polygon: toPgPolygon(part.points), area_parts: null };

/** Per person and channel, the alert's last delivery that reached them there (sent, delivered or read) and what it carried. */
const lastReachedSql = (alertId: string) => `SELECT DISTINCT ON (d.user_id, d.channel) d.user_id, d.channel, d.kind
  FROM alerts.alert_deliveries d WHERE d.alert_id = ${alertId} AND d.status IN ('sent', 'delivered', 'read')
  ORDER BY d.user_id, d.channel, d.round DESC`;

/**
 * The counts of the people told (`t`: user_id, channels) with their preferences row as `e`: in all, held (by the rule
 * deliveries are held with, for `alert`'s severity) and per channel.
 */
function toldCountsSql(alert: Pick<EligibilityAlert, 'severity' | 'source'>, params: SqlParams, at: Date) {
  const held = `coalesce(${holdUntilSql(alert, params, at)} > ${params.bind('at', at.toISOString(), 'timestamptz')}, false)`;
  // the e-mail digest's hold (emailHoldUntilSql), read only for those told by e-mail
  const emailHeld = `CASE WHEN 'email' = ANY(t.channels) THEN coalesce(${emailHoldUntilSql(alert, params, at)} > ${params.bind('at', at.toISOString(), 'timestamptz')}, false) ELSE false END`;
  const perChannel = DELIVERY_CHANNELS.map(
    (c) =>
      `count(*) FILTER (WHERE '${c}' = ANY(t.channels))::int AS ${c}, count(*) FILTER (WHERE '${c}' = ANY(t.channels) AND ${c === 'email' ? emailHeld : held})::int AS ${c}_held`,
  );
  // told later: every channel waits, their own hold or an e-mail alone that the digest holds
  const waits = `(${held} OR (t.channels <@ ARRAY['email'] AND ${emailHeld}))`;
  return `count(*)::int AS recipients, count(*) FILTER (WHERE ${waits})::int AS held, ${perChannel.join(', ')}`;
}

const channelCounts = (channels: readonly DeliveryChannel[], row: Record<string, number>) =>
  Object.fromEntries(channels.map((c) => [c, { recipients: row[c], held: row[`${c}_held`] }])) as AudienceCounts['channels'];

export interface AudienceCounts {
  concerned: number;
  recipients: number;
  held: number;
  noChannel: number;
  noDevice: number;
  /** Of noChannel, those with SMS on whose number replied STOP; present when the alert's channels include SMS. */
  smsStopped?: number;
  channels: Partial<Record<DeliveryChannel, { recipients: number; held: number }>>;
}

/** An update's preview: whom it tells, and what (AlertAudience.told). */
export interface UpdateCounts {
  recipients: number;
  held: number;
  channels: AudienceCounts['channels'];
  told: { stillInArea: number; leftArea: number; newlyConcerned: number };
}
