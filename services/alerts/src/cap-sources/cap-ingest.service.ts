import { setImmediate } from 'node:timers/promises';
import { Injectable, Logger } from '@nestjs/common';
import { CapPollResult, JobName, JobPayloads } from '@beacon/contracts';
import { AppError, OnJob, RateLimitExceeded } from '@beacon/common';
import { AlertsRepository } from '../alerts/alerts.repository';
import { AlertsService } from '../alerts/alerts.service';
import { Actor } from '../alerts/audit.repository';
import { AlertRevisionsService } from '../alerts/revisions.service';
import { beaconCategoryOfCap, beaconSeverityOfCap } from '../cap/cap-vocabulary';
import { AlertsEnv } from '../config/env.dto';
import { BeaconArea, toBeaconArea } from './cap-area';
import { toAlertArea } from '../alerts/alert-area';
import { CapFeedClient, CapFetchError, CapPollDeadlineError, CapRateLimitedError, CapTooLargeError } from './cap-feed.client';
import { CapInfo, CapMessage, readFeedDocument } from './cap-message';
import { capText, primaryInfo, toBeaconTranslations } from './cap-translations';
import { CapSourceRow, CapSourcesRepository } from './cap-sources.repository';
import { CapRefusal, DEFAULT_XML_LIMITS, XmlLimits } from './strict-xml';

type Outcome = 'created' | 'updated' | 'cancelled' | 'ignored' | 'retry';

const expiryOf = (info: CapInfo) => (info.expires ? new Date(info.expires) : null);
const isExpired = (info: CapInfo, now = Date.now()) => {
  const e = expiryOf(info);
  return !!e && e.getTime() <= now;
};
/** The tracked outcome, with the polygons Beacon took as their convex hull (toBeaconArea's `approximated`) when any. */
const noting = (outcome: string, area: BeaconArea | null) => (area?.approximated.length ? `${outcome} (${area.approximated.join('; ')})` : outcome);

/**
 * One poll of one CAP source: fetch the document (a CAP message, or an Atom/RSS index whose entries link to or embed
 * messages), read it strictly, and apply each message to Beacon: an Alert the source's rule takes becomes a Beacon
 * alert (a draft for review, or sent, by the rule) through AlertsService like the form's; an Update makes a new version
 * of the alert it references (or replaces the draft); a Cancel cancels it; a message whose expiry passed ends it. Each
 * message is tracked per source by sender and identifier: fetched again, it does nothing. A document that cannot be
 * read is refused with its reason (logged and kept for the console) and the rest of the feed is still taken; a source
 * that cannot be fetched is backed off and shown failing.
 */
@Injectable()
export class CapIngestService {
  private readonly logger = new Logger('CapIngest');

  constructor(
    private readonly sources: CapSourcesRepository,
    private readonly client: CapFeedClient,
    private readonly alerts: AlertsService,
    private readonly alertRows: AlertsRepository,
    private readonly revisions: AlertRevisionsService,
    private readonly env: AlertsEnv,
  ) {}

  private get limits(): XmlLimits {
    return { ...DEFAULT_XML_LIMITS, maxBytes: this.env.CAP_SOURCE_MAX_KB * 1024 };
  }

  @OnJob(JobName.CapSourcePoll)
  async handle(job: JobPayloads[JobName.CapSourcePoll]) {
    const source = await this.sources.find(job.sourceId);
    if (!source || !source.enabled) return { skipped: true };
    try {
      return await this.poll(source);
    } catch (e) {
      // Moves the due time on (a back-off), so the next tick queues a poll under a new job id rather than the failed one's.
      await this.sources.failed(source.id, `internal error: ${(e as Error).message}`, null);
      throw e;
    }
  }

  /**
   * One poll, ended by CAP_POLL_DEADLINE_SECONDS however slow the feed: the links not fetched by then are left for
   * the next poll (`leftForNextPoll`). `onDemand` (Fetch now): a feed host over its rate limit is refused with
   * RateLimitExceeded and nothing is recorded, rather than counted as the source failing.
   */
  async poll(source: CapSourceRow, { onDemand = false } = {}): Promise<CapPollResult> {
    const deadline = Date.now() + this.env.CAP_POLL_DEADLINE_SECONDS * 1000;
    const result: CapPollResult = { fetched: 0, created: 0, updated: 0, cancelled: 0, ignored: 0, refused: 0, leftForNextPoll: 0 };
    const refuse = async (url: string | null, reason: string) => {
      result.refused++;
      this.logger.warn(`CAP source ${source.id} (${source.name}): refused ${url ?? 'an embedded message'}: ${reason}`);
      await this.sources.refuse(source.id, url, reason);
    };
    let text: string;
    try {
      text = await this.client.fetch(source.url, deadline);
      result.fetched++;
    } catch (e) {
      if (onDemand && e instanceof CapRateLimitedError) throw new RateLimitExceeded(Math.max(1, Math.ceil((e.retryAt.getTime() - Date.now()) / 1000)));
      const err = e instanceof CapPollDeadlineError ? new CapFetchError(`no answer within the poll's ${this.env.CAP_POLL_DEADLINE_SECONDS} s`) : e;
      if (!(err instanceof CapFetchError || err instanceof CapTooLargeError)) throw err;
      if (err instanceof CapTooLargeError) {
        result.fetched++;
        await refuse(source.url, err.message);
      }
      this.logger.warn(`CAP source ${source.id} (${source.name}) failed: ${err.message}`);
      await this.sources.failed(source.id, err.message, err instanceof CapFetchError ? err.retryAt : null);
      return result;
    }
    let doc;
    try {
      doc = readFeedDocument(text, this.limits);
    } catch (e) {
      if (!(e instanceof CapRefusal)) throw e;
      await refuse(source.url, e.message);
      await this.sources.failed(source.id, `the document is refused: ${e.message}`, null);
      return result;
    }
    for (const reason of doc.refusals) await refuse(source.url, reason);
    const count = (o: Outcome) => {
      if (o !== 'retry') result[o]++;
    };
    for (const { message, xml } of doc.messages) count(await this.apply(source, message, xml, null));
    const links = doc.links.slice(0, this.env.CAP_SOURCE_MAX_LINKS);
    for (const [i, link] of links.entries()) {
      let url: string;
      try {
        url = new URL(link, source.url).toString();
      } catch {
        await refuse(link, 'the link is not a URL');
        continue;
      }
      if (await this.sources.knownUrl(source.id, url)) continue;
      try {
        const body = await this.client.fetch(url, deadline);
        result.fetched++;
        const linked = readFeedDocument(body, this.limits);
        if (linked.messages.length !== 1 || linked.links.length) throw new CapRefusal('a linked document is not a single CAP alert');
        count(await this.apply(source, linked.messages[0].message, linked.messages[0].xml, url));
      } catch (e) {
        // Out of time, or rate limited: this link and the rest wait for the next poll.
        if (e instanceof CapPollDeadlineError || (e instanceof CapFetchError && e.retryAt)) {
          result.leftForNextPoll = links.length - i;
          this.logger.warn(`CAP source ${source.id} (${source.name}): ${result.leftForNextPoll} links left for the next poll (${e.message})`);
          break;
        }
        if (!(e instanceof CapFetchError || e instanceof CapTooLargeError || e instanceof CapRefusal)) throw e;
        if (e instanceof CapTooLargeError) result.fetched++;
        await refuse(url, e.message);
      }
    }
    await this.sources.succeeded(source.id, source.interval_seconds);
    return result;
  }

  /** Applies one message; tracked once applied, so the same message again does nothing. */
  async apply(source: CapSourceRow, msg: CapMessage, xml: string, url: string | null): Promise<Outcome> {
    if (await this.sources.tracked(source.id, msg.sender, msg.identifier)) return 'ignored';
    const actor: Actor = { id: null, email: `CAP source: ${source.name}` };
    const track = async (alertId: string | null, outcome: string) => {
      await this.sources.track({
        sourceId: source.id,
        sender: msg.sender,
        identifier: msg.identifier,
        sent: msg.sent,
        msgType: msg.msgType,
        url,
        alertId,
        outcome,
        xml,
      });
    };
    if (msg.status !== 'Actual') {
      await track(null, `ignored: status ${msg.status}`);
      return 'ignored';
    }
    if (msg.msgType === 'Alert') return this.create(source, msg, url, actor, track);
    if (msg.msgType !== 'Update' && msg.msgType !== 'Cancel') {
      await track(null, `ignored: ${msg.msgType}`);
      return 'ignored';
    }
    const alertId = await this.referenced(source, msg);
    if (!alertId) {
      // An update of a message we never took (the source began before it, or the rule refused it) is taken as new.
      if (msg.msgType === 'Update') return this.create(source, msg, url, actor, track);
      await track(null, 'ignored: references no alert from this source');
      return 'ignored';
    }
    const row = await this.alertRows.findById(alertId);
    // Held by the approval policy (issue 38): it can still be cancelled or end, like a draft.
    const awaitingApproval = row?.status === 'pending_approval';
    if (!row || (row.status !== 'draft' && row.status !== 'active' && !awaitingApproval)) {
      await track(alertId, `ignored: the alert is ${row?.status ?? 'gone'}`);
      return 'ignored';
    }
    if (msg.msgType === 'Cancel') {
      try {
        await this.alerts.cancel(alertId, actor);
      } catch (e) {
        // Ended meanwhile (an admin, or a poll running at the same time): nothing left to cancel.
        if (!(e instanceof AppError && e.code === 'invalid_alert_status')) throw e;
        await track(alertId, 'ignored: already ended');
        return 'ignored';
      }
      await track(alertId, 'cancelled');
      return 'cancelled';
    }
    const info = primaryInfo(msg.infos);
    if (isExpired(info)) {
      if (row.status === 'draft' || awaitingApproval) await this.alerts.cancel(alertId, actor);
      else {
        await this.sources.expireAt(alertId, expiryOf(info)!);
        await this.alerts.announceChange((await this.alertRows.findById(alertId))!);
      }
      await track(alertId, 'ended: expired');
      return 'cancelled';
    }
    // Its update waits too, untracked: a later poll takes it as a new version once approved, or into the draft once rejected.
    if (awaitingApproval) return 'retry';
    const { title, message } = capText(info);
    const translations = toBeaconTranslations(msg.infos, info);
    const { area } = await this.areaOf(source, info, url);
    const severity = beaconSeverityOfCap(info.severity);
    if (row.status === 'draft') {
      await this.sources.replaceDraft(alertId, {
        title,
        message,
        translations,
        severity,
        category: beaconCategoryOfCap(info.categories),
        area: area ? toAlertArea({ area: area.area }) : null,
        locationName: area?.locationName ?? row.location_name,
        expiresAt: expiryOf(info),
      });
      // announceChange tells a draft (it never went out) to the admins' screens alone.
      await this.alerts.announceChange((await this.alertRows.findById(alertId))!);
      await track(alertId, noting('updated draft', area));
      return 'updated';
    }
    try {
      await this.revisions.update(
        alertId,
        {
          title,
          message,
          translations,
          severity,
          expiresAt: info.expires ? new Date(info.expires).toISOString() : null,
          ...(area ? { area: area.area, locationName: area.locationName ?? '' } : {}),
        },
        actor,
      );
    } catch (e) {
      if (e instanceof AppError && e.code === 'nothing_to_update') {
        await track(alertId, 'ignored: nothing changed');
        return 'ignored';
      }
      if (e instanceof AppError && e.code === 'alert_not_dispatched') return 'retry'; // not tracked: taken at the next poll
      throw e;
    }
    await track(alertId, noting('updated', area));
    return 'updated';
  }

  /** The Beacon alert of the latest referenced message taken from this source. */
  private async referenced(source: CapSourceRow, msg: CapMessage): Promise<string | null> {
    for (const ref of [...msg.references].reverse()) {
      const t = await this.sources.tracked(source.id, ref.sender, ref.identifier);
      if (t?.alert_id) return t.alert_id;
    }
    return null;
  }

  /**
   * The message's Beacon area, its parts as the authority drew them; null when it names none, or when Beacon refuses
   * it (larger than an alert may cover, too many parts or points): then `refused` says why, and it is kept with the
   * source's recent refusals so the console shows it.
   */
  private async areaOf(source: CapSourceRow, info: CapInfo, url: string | null): Promise<{ area: BeaconArea | null; refused: string | null }> {
    // The document was just read in one go: let the requests waiting on the event loop in before the geometry runs.
    await setImmediate();
    const found = await toBeaconArea(info);
    if (found?.area && found.approximated.length) {
      this.logger.warn(
        `CAP source ${source.id} (${source.name}): the area of ${url ?? 'an embedded message'} is not taken as drawn: ${found.approximated.join('; ')}`,
      );
    }
    if (!found || found.area !== null) return { area: found, refused: null };
    this.logger.warn(`CAP source ${source.id} (${source.name}): the area of ${url ?? 'an embedded message'} is refused: ${found.reason}`);
    await this.sources.refuse(source.id, url, `the area is refused (the alert is kept as a draft, or its area unchanged): ${found.reason}`);
    return { area: null, refused: found.reason };
  }

  private async create(
    source: CapSourceRow,
    msg: CapMessage,
    url: string | null,
    actor: Actor,
    track: (alertId: string | null, outcome: string) => Promise<void>,
  ): Promise<Outcome> {
    const info = primaryInfo(msg.infos);
    if (source.categories.length && !info.categories.some((c) => source.categories.includes(c))) {
      await track(null, `ignored: category ${info.categories.join(',')} not taken`);
      return 'ignored';
    }
    if (source.severities.length && !source.severities.includes(info.severity)) {
      await track(null, `ignored: severity ${info.severity} not taken`);
      return 'ignored';
    }
    if (isExpired(info)) {
      await track(null, 'ignored: expired');
      return 'ignored';
    }
    const { area, refused } = await this.areaOf(source, info, url);
    const sendNow =
      area !== null && (source.mode === 'send' || (source.mode === 'send_extreme_immediate' && info.severity === 'Extreme' && info.urgency === 'Immediate'));
    const input = this.alerts.toNewAlert(
      {
        ...capText(info),
        translations: toBeaconTranslations(msg.infos, info),
        category: beaconCategoryOfCap(info.categories),
        severity: beaconSeverityOfCap(info.severity),
        ...(area ? { area: area.area } : {}),
        locationName:
          area?.locationName ??
          (info.areas
            .map((a) => a.areaDesc)
            .join('; ')
            .slice(0, 200) ||
            undefined),
        expiresAt: info.expires ? new Date(info.expires).toISOString() : undefined,
        channels: source.channels,
        draft: !sendNow,
      },
      null,
      null,
    );
    input.source = 'cap';
    input.sourceRef = `${source.id}:${msg.sender}:${msg.identifier}`;
    const { alert } = await this.alerts.createFrom(input, actor);
    // Geocode-only, or an area Beacon refused: kept as a draft the admin must give an area before sending (the console says so).
    const sent = alert.status === 'pending_approval' ? 'awaiting approval' : 'sent';
    await track(alert.id, area ? noting(sendNow ? sent : 'draft', area) : refused ? `draft: ${refused}` : 'draft: needs an area');
    this.logger.log(`CAP source ${source.id}: ${msg.sender}/${msg.identifier} made alert ${alert.id} (${alert.status})`);
    return 'created';
  }
}
