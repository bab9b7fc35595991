import { AlertResponses, DeliveryChannel, DeliveryStatus, DeliverySummary, emptyCounts } from '@beacon/contracts';

// An alert's progress is its deliveries' counts and the people's answers, read together (the console's rows, the live
// progress events); the answers sit with the counts because the deliveries heed them too (a reminder skips whoever answered).

/**
 * [channel, status, n] per channel and status from the roll-up, and [channel, 'held', n]: pending deliveries
 * whose not_before is still ahead, counted now from the held-deliveries index (HeldDeliveries migration), which
 * holds only rows written with a release time, so an alert that holds nothing costs one index probe; and
 * [channel, 'retrying', n]: deliveries waiting for (or in) a retry after a transient failure, from the retry index
 * (DeliveryOperations), as small.
 */
export const COUNTS_SQL = `COALESCE((SELECT jsonb_agg(jsonb_build_array(c.channel, c.status, c.n)) FROM (
    SELECT c.channel, c.status, sum(c.n)::int AS n FROM alerts.alert_delivery_counts c WHERE c.alert_id = a.id GROUP BY 1, 2 HAVING sum(c.n) <> 0
    UNION ALL
    SELECT h.channel, 'held', count(*)::int FROM alerts.alert_deliveries h
    WHERE h.alert_id = a.id AND h.not_before IS NOT NULL AND h.not_before > now() AND h.status = 'pending' GROUP BY h.channel
    UNION ALL
    SELECT r.channel, 'retrying', count(*)::int FROM alerts.alert_deliveries r
    WHERE r.alert_id = a.id AND r.next_attempt_at IS NOT NULL AND r.status IN ('pending','sending') GROUP BY r.channel) c), '[]'::jsonb) AS counts`;

/** The people's answers to an alert ("I'm Safe", help requests), counted from their own tables' alert indexes. */
export const RESPONSES_SQL = `(SELECT count(*) FROM alerts.alert_reads r WHERE r.alert_id = a.id)::int AS safe,
  (SELECT count(*) FROM alerts.help_requests h WHERE h.alert_id = a.id)::int AS need_help,
  (SELECT count(*) FROM alerts.help_requests h WHERE h.alert_id = a.id AND h.status = 'open')::int AS help_open`;

export const toResponses = (r: { safe?: number; need_help?: number; help_open?: number }): AlertResponses => ({
  safe: r.safe ?? 0,
  needHelp: r.need_help ?? 0,
  helpOpen: r.help_open ?? 0,
});

/** The per-channel summary from COUNTS_SQL; the dispatcher's in-flight 'sending' counts as pending, held and retrying are apart. */
export function toDeliverySummary(counts: [DeliveryChannel, string, number][] = []): DeliverySummary {
  const summary: DeliverySummary = {};
  for (const [channel, status, n] of counts) {
    const c = (summary[channel] ??= { ...emptyCounts(), held: 0, retrying: 0 });
    if (status === 'held') c.held = Number(n);
    else if (status === 'retrying') c.retrying = Number(n);
    else c[(status === 'sending' ? 'pending' : status) as DeliveryStatus] += Number(n);
  }
  return summary;
}
