import { Injectable, Logger } from '@nestjs/common';
import { ALERT_LIMITS, JobName, JobPayloads } from '@beacon/contracts';
import { AlertsRepository } from '../alerts/alerts.repository';
import { toSummary } from '../alerts/alert.rows';
import { AlertsEnv } from '../config/env.dto';
import { jobRequestId, LiveEvents, logLine, OnJob } from '@beacon/common';
import type { Job } from 'bullmq';

/** 'Wrong-way Driver', 'wrong_way_driver', 'wrong-way-driver' all name the same incident type. */
export const isWrongWayDriver = (type: string) =>
  type
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-') === 'wrong-way-driver';

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/**
 * A verified wrong-way-driver report becomes a DRAFT critical traffic alert around the report, for an
 * admin to review and send. One draft per incident, however often the event is delivered.
 */
@Injectable()
export class IncidentVerifiedHandler {
  private readonly logger = new Logger('IncidentVerified');

  constructor(
    private readonly alerts: AlertsRepository,
    private readonly live: LiveEvents,
    private readonly env: AlertsEnv,
  ) {}

  @OnJob(JobName.IncidentVerified)
  async handle(event: JobPayloads[JobName.IncidentVerified], job?: Job) {
    if (!isWrongWayDriver(event.type)) return { skipped: true };
    const where = event.locationName?.trim();
    const description = event.description?.trim() ?? '';
    const message = clip(
      `A wrong-way driver was reported${where ? ` near ${where}` : ''}. ${description || 'Stay off the road if you can and watch for oncoming traffic.'}`,
      ALERT_LIMITS.messageMax,
    );
    const { id, created } = await this.alerts.insert({
      title: clip(`Wrong-way driver${where ? ` near ${where}` : ' reported'}`, ALERT_LIMITS.titleMax),
      message,
      type: 'Traffic',
      severity: 'critical',
      category: 'traffic',
      locationName: where || null,
      lat: event.lat,
      lng: event.lng,
      radiusKm: this.env.INCIDENT_ALERT_RADIUS_KM,
      expiresAt: null,
      channels: ['push', 'sms'],
      status: 'draft',
      source: 'incident',
      sourceRef: event.incidentId,
      createdBy: event.verifiedBy ?? null,
    });
    if (created) {
      this.logger.log(logLine(`draft alert ${id} from verified incident ${event.incidentId}`, jobRequestId(job)));
      const row = await this.alerts.findById(id);
      if (row) this.live.toAdmins('alert:new', toSummary(row));
    }
    return { alertId: id, created };
  }
}
