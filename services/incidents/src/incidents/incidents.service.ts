import { Injectable, Logger } from '@nestjs/common';
import { AppError, jobId, LiveEvents, notFound } from '@beacon/common';
import { AuthUser } from '@beacon/auth';
import {
  Incident,
  INCIDENT_LIMITS,
  INCIDENT_TRANSITIONS,
  IncidentEvent,
  IncidentPage,
  IncidentStatus,
  JobName,
  JobPayloads,
  ModerationQueueCount,
  ModerationQueuePage,
  PossibleDuplicate,
  PublicIncident,
  Rooms,
} from '@beacon/contracts';
import { IncidentsEnv } from '../config/env.dto';
import { Outbox } from '../events/outbox';
import { UploadsService } from '../uploads/uploads.service';
import { CreateIncidentDto } from './dto/create-incident.dto';
import { DuplicateCheckQuery, ListIncidentsQuery, NearbyIncidentsQuery, UpdateIncidentStatusDto } from './dto/incident-queries';
import { PhotoUrls } from '../uploads/photo-urls';
import { IncidentRow, isPublished, toIncident, toModerationIncident, toPossibleDuplicate, toPublicIncident, Viewer } from './incident.entity';
import { IncidentsRepository } from './incidents.repository';

const viewerOf = (user: AuthUser): Viewer => ({ id: user.id, isAdmin: user.role === 'admin' });

/** The verifier of a report the reporter's standing approved: nobody. */
const AUTO_APPROVED = Symbol('auto-approved');

const MAX_PUBLIC_MAP_ITEMS = 500;

function toEvent(row: IncidentRow): IncidentEvent {
  return {
    incidentId: row.id,
    type: row.type,
    reportedBy: row.reported_by,
    lat: row.lat,
    lng: row.lng,
    locationName: row.location_name,
    description: row.description,
    occurredAt: row.created_at.toISOString(),
  };
}

@Injectable()
export class IncidentsService {
  private readonly logger = new Logger('Incidents');

  constructor(
    private readonly repo: IncidentsRepository,
    private readonly uploads: UploadsService,
    private readonly outbox: Outbox,
    private readonly sockets: LiveEvents,
    private readonly env: IncidentsEnv,
    private readonly photos: PhotoUrls,
  ) {}

  /** Only the reporter and admins see an unpublished report, so only they ever get its photo's signed URL. */
  private view(row: IncidentRow, viewer: Viewer): Incident {
    return toIncident(row, viewer, this.photoUrl(row));
  }

  private photoUrl(row: IncidentRow): string | null {
    const path = row.photo_path;
    return path ? (isPublished(row.status) ? this.photos.plain(path) : this.photos.signed(path)) : null;
  }

  async create(user: AuthUser, dto: CreateIncidentDto): Promise<Incident> {
    if (dto.photoPath) await this.uploads.assertOwnUpload(dto.photoPath, 'incident-photos', user.id);
    const autoApproved = await this.qualifiesForAutoApproval(user.id);
    const row = await this.repo.transaction(async (m) => {
      const created = await this.repo.insert(m, {
        type: dto.type,
        description: dto.description,
        locationName: dto.locationName ?? null,
        lat: dto.lat,
        lng: dto.lng,
        photoPath: dto.photoPath ?? null,
        reportedBy: user.id,
        // the token's e-mail, kept for the moderation queue (this service has no other way to name the reporter)
        reporterEmail: user.email || null,
        status: autoApproved ? 'verified' : 'pending',
        autoApproved,
      });
      await this.outbox.add(m, JobName.IncidentCreated, toEvent(created), jobId(JobName.IncidentCreated, created.id));
      // no admin verified it: the alerts service must not record the reporter as the author of its draft
      if (autoApproved) await this.addVerifiedEvent(m, created, AUTO_APPROVED);
      return created;
    });
    this.afterCommit(row);
    return this.view(row, viewerOf(user));
  }

  /** Enough admin-verified reports and no recent rejection: the reporter's word is taken. */
  private async qualifiesForAutoApproval(userId: string): Promise<boolean> {
    const threshold = this.env.INCIDENT_AUTO_APPROVE_VERIFIED;
    if (threshold <= 0) return false;
    const standing = await this.repo.reporterStanding(userId, this.env.INCIDENT_AUTO_APPROVE_REJECT_DAYS);
    return standing.verified >= threshold && standing.recentlyRejected === 0;
  }

  private addVerifiedEvent(m: Parameters<Outbox['add']>[0], row: IncidentRow, verifier: { id: string } | typeof AUTO_APPROVED) {
    // the alerts service consumes this (a verified wrong-way driver becomes a draft critical alert, created_by = verifiedBy)
    const event: JobPayloads[JobName.IncidentVerified] = {
      ...toEvent(row),
      verifiedBy: verifier === AUTO_APPROVED ? null : verifier.id,
      autoApproved: verifier === AUTO_APPROVED,
    };
    return this.outbox.add(m, JobName.IncidentVerified, event, jobId(JobName.IncidentVerified, row.id));
  }

  /** Relay the events at once and tell open screens; neither may fail the request that caused them. */
  private afterCommit(row: IncidentRow) {
    void this.outbox.flush();
    try {
      if (row.status === 'verified') {
        this.sockets
          .to(Rooms.public)
          .emit('incident:verified', { id: row.id, type: row.type, lat: row.lat, lng: row.lng, createdAt: row.created_at.toISOString() });
      }
    } catch (e) {
      this.logger.warn(`live update not sent: ${(e as Error).message}`);
    }
  }

  /** Pending and rejected reports exist only for their reporter and admins: anyone else gets the same 404 as for no report. */
  async get(user: AuthUser, id: string): Promise<Incident> {
    const row = await this.repo.findById(id);
    const viewer = viewerOf(user);
    if (!row || !this.canSee(row, viewer)) throw notFound('Incident', 'incident_not_found');
    return this.view(row, viewer);
  }

  private canSee(row: IncidentRow, viewer: Viewer) {
    return viewer.isAdmin || row.reported_by === viewer.id || isPublished(row.status);
  }

  async list(user: AuthUser, q: ListIncidentsQuery): Promise<IncidentPage> {
    const viewer = viewerOf(user);
    const { rows, total } = await this.repo.list(viewer, q);
    return { items: rows.map((r) => this.view(r, viewer)), total };
  }

  async mine(user: AuthUser, limit: number, offset: number): Promise<IncidentPage> {
    const { rows, total } = await this.repo.listByReporter(user.id, limit, offset);
    return { items: rows.map((r) => this.view(r, viewerOf(user))), total };
  }

  /** Admin only (the controller's @Roles): urgent types first, then the longest waiting, each with its reporter's record. */
  async moderationQueue(admin: AuthUser, limit: number, offset: number): Promise<ModerationQueuePage> {
    const { rows, total } = await this.repo.listPending(limit, offset);
    return { items: rows.map((r) => toModerationIncident(r, viewerOf(admin), this.photoUrl(r))), total };
  }

  /** Admin only (the controller's @Roles). */
  async moderationQueueCount(): Promise<ModerationQueueCount> {
    return { pending: await this.repo.countPending() };
  }

  async nearby(user: AuthUser, q: NearbyIncidentsQuery): Promise<{ items: Incident[] }> {
    const viewer = viewerOf(user);
    const rows = await this.repo.nearby(viewer, { lat: q.lat, lng: q.lng, radiusM: q.radiusKm * 1000, limit: q.limit, type: q.type });
    return { items: rows.map((r) => this.view(r, viewer)) };
  }

  async possibleDuplicates(user: AuthUser, q: DuplicateCheckQuery): Promise<{ items: PossibleDuplicate[] }> {
    const rows = await this.repo.possibleDuplicates({
      type: q.type,
      lat: q.lat,
      lng: q.lng,
      radiusM: INCIDENT_LIMITS.duplicateRadiusM,
      windowMinutes: INCIDENT_LIMITS.duplicateWindowMinutes,
    });
    return { items: rows.map((r) => toPossibleDuplicate(r, viewerOf(user))) };
  }

  async verifiedForMap(hours: number): Promise<{ items: PublicIncident[] }> {
    const rows = await this.repo.verifiedSince(hours, MAX_PUBLIC_MAP_ITEMS);
    return { items: rows.map(toPublicIncident) };
  }

  /** Admin only (the controller's @Roles): moves a report along INCIDENT_TRANSITIONS. */
  async changeStatus(admin: AuthUser, id: string, dto: UpdateIncidentStatusDto): Promise<Incident> {
    const current = await this.repo.findById(id);
    if (!current) throw notFound('Incident', 'incident_not_found');
    const target: IncidentStatus = dto.status;
    if (!INCIDENT_TRANSITIONS[current.status].includes(target)) {
      const allowed = INCIDENT_TRANSITIONS[current.status];
      throw new AppError(
        409,
        'invalid_transition',
        allowed.length ? `A ${current.status} report can only become ${allowed.join(' or ')}` : `A ${current.status} report cannot change status`,
      );
    }
    const updated = await this.repo.transaction(async (m) => {
      const row = await this.repo.updateStatus(m, id, current.status, target, admin.id, dto.note?.trim() || null);
      if (!row) throw new AppError(409, 'status_changed', 'This report was just updated by someone else. Reload and try again.');
      if (target === 'verified') await this.addVerifiedEvent(m, row, admin);
      return row;
    });
    this.afterCommit(updated);
    return this.view(updated, viewerOf(admin));
  }
}
