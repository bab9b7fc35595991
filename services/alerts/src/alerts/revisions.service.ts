import { Injectable } from '@nestjs/common';
import { AdminAlert, AlertVersion, JobIds, JobName } from '@beacon/contracts';
import { badRequest, JobQueue, notFound } from '@beacon/common';
import { Actor } from './audit.repository';
import { AlertsService } from './alerts.service';
import { AllClearDto, UpdateAlertDto } from './dto/update-alert.dto';
import { AlertChanges, RevisionsRepository } from './revisions.repository';
import { toAlertArea } from './alert-area';
import { toGroupIds } from './alert-groups';
import { toAllClearTranslations, toTranslations } from './alert-texts';

/**
 * An alert's life after it went out, as warning systems (CAP, WEA) live it (a draft's update is just its edit): an update is a new version of the same
 * alert (the people it reached are told what changed, those newly concerned get it as new, those no longer concerned
 * are told so); the all-clear ends it and tells everyone it reached. Each is stored at once, then fanned out by the
 * dispatcher (alert.revise, RevisionHandler) under a job id of its own version, which the sweep queues again if lost.
 */
@Injectable()
export class AlertRevisionsService {
  constructor(
    private readonly revisions: RevisionsRepository,
    private readonly alerts: AlertsService,
    private readonly queue: JobQueue,
  ) {}

  async update(id: string, dto: UpdateAlertDto, actor: Actor): Promise<AdminAlert> {
    const changes = toChanges(dto);
    await this.alerts.assertGroupsExist(changes.groupIds);
    const { row } = await this.revisions.update(id, changes, actor, { version: dto.version, revision: dto.revision });
    if (row.status !== 'draft') await this.enqueue(id, row.version!);
    await this.alerts.announceChange(row);
    return this.alerts.get(id);
  }

  async allClear(id: string, dto: AllClearDto, actor: Actor): Promise<AdminAlert> {
    const row = await this.revisions.allClear(id, dto.message || null, actor, toAllClearTranslations(dto.translations));
    await this.enqueue(id, row.version!);
    await this.alerts.announceChange(row);
    return this.alerts.get(id);
  }

  async versions(id: string): Promise<AlertVersion[]> {
    const versions = await this.revisions.list(id);
    if (!versions) throw notFound('Alert', 'alert_not_found');
    return versions;
  }

  enqueue(alertId: string, version: number) {
    return this.queue.add(JobName.AlertRevise, { alertId, version }, { jobId: JobIds.revise(alertId, version) });
  }
}

/**
 * The update's changes as stored. A new area (`area`, or lat/lng) is read by the create form's own rules
 * (toAlertArea) and replaces the old one whole; a radius alone resizes the alert's circle; contact groups replace its
 * own whole (toGroupIds).
 */
export function toChanges(dto: UpdateAlertDto): AlertChanges {
  const expiresAt = dto.expiresAt === undefined ? undefined : dto.expiresAt === null ? null : new Date(dto.expiresAt);
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw badRequest('Expiry must be in the future', 'expiry_in_past');
  const newArea = dto.area !== undefined || dto.lat !== undefined || dto.lng !== undefined;
  const area: NonNullable<AlertChanges['area']> = newArea ? { where: toAlertArea(dto) } : dto.radiusKm !== undefined ? { radiusKm: dto.radiusKm } : {};
  if (dto.locationName !== undefined) area.locationName = dto.locationName.trim() || null;
  return {
    title: dto.title,
    message: dto.message,
    translations: dto.translations === undefined ? undefined : toTranslations(dto.translations),
    severity: dto.severity,
    expiresAt,
    ...(Object.keys(area).length ? { area } : {}),
    ...(dto.groupIds !== undefined && dto.groupIds !== null ? { groupIds: toGroupIds(dto.groupIds) } : {}),
  };
}
