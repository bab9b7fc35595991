import type { Incident, IncidentStatus, IncidentType, ModerationIncident, PossibleDuplicate, PublicIncident } from '@beacon/contracts';

/** Reports everyone may see, photo included; pending and rejected ones only their reporter and admins. */
export const PUBLISHED_STATUSES: readonly IncidentStatus[] = ['verified', 'resolved'];
export const isPublished = (status: IncidentStatus) => PUBLISHED_STATUSES.includes(status);

/** One row of incidents.incidents as the repository selects it. */
export interface IncidentRow {
  id: string;
  type: IncidentType;
  description: string;
  location_name: string | null;
  lat: number;
  lng: number;
  photo_path: string | null;
  status: IncidentStatus;
  reported_by: string;
  /** The e-mail in the reporter's token when they reported; null for reports made before it was kept. */
  reporter_email: string | null;
  auto_approved: boolean;
  moderated_by: string | null;
  moderated_at: Date | null;
  moderation_note: string | null;
  created_at: Date;
  updated_at: Date;
  distance_m?: number;
}

export const INCIDENT_COLUMNS = `i.id, i.type, i.description, i.location_name, i.lat, i.lng, i.photo_path, i.status, i.reported_by,
  i.reporter_email, i.auto_approved, i.moderated_by, i.moderated_at, i.moderation_note, i.created_at, i.updated_at`;

/** A moderation-queue row: the report, and how its reporter's other reports fared. */
export interface ModerationRow extends IncidentRow {
  reporter_verified: number;
  reporter_rejected: number;
  reporter_pending: number;
}

export interface Viewer {
  id: string;
  isAdmin: boolean;
}

/**
 * What a viewer sees of a row: the reporter's id and the moderation note only for the reporter and admins.
 * `photoUrl` is decided by the caller (PhotoUrls): plain when published, signed when not.
 */
export function toIncident(row: IncidentRow, viewer: Viewer, photoUrl: string | null): Incident {
  const mine = row.reported_by === viewer.id;
  const privileged = mine || viewer.isAdmin;
  return {
    id: row.id,
    type: row.type,
    description: row.description,
    locationName: row.location_name,
    lat: row.lat,
    lng: row.lng,
    photoUrl,
    status: row.status,
    reportedBy: privileged ? row.reported_by : null,
    mine,
    autoApproved: row.auto_approved,
    moderatedAt: row.moderated_at?.toISOString() ?? null,
    moderationNote: privileged ? row.moderation_note : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...(row.distance_m !== undefined ? { distanceM: Math.round(row.distance_m) } : {}),
  };
}

/** The queue is for admins only (the controller's @Roles): the reporter's e-mail and record go with each report. */
export function toModerationIncident(row: ModerationRow, admin: Viewer, photoUrl: string | null): ModerationIncident {
  return {
    ...toIncident(row, admin, photoUrl),
    reporter: {
      id: row.reported_by,
      email: row.reporter_email,
      history: { verified: row.reporter_verified, rejected: row.reporter_rejected, pending: row.reporter_pending },
    },
  };
}

export function toPublicIncident(row: IncidentRow): PublicIncident {
  return {
    id: row.id,
    type: row.type,
    description: row.description,
    locationName: row.location_name,
    lat: row.lat,
    lng: row.lng,
    createdAt: row.created_at.toISOString(),
  };
}

/** Another user's pending report is offered as a duplicate without its text. */
export function toPossibleDuplicate(row: IncidentRow, viewer: Viewer): PossibleDuplicate {
  const open = row.status === 'verified' || row.reported_by === viewer.id || viewer.isAdmin;
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    distanceM: Math.round(row.distance_m ?? 0),
    createdAt: row.created_at.toISOString(),
    description: open ? row.description : null,
    locationName: open ? row.location_name : null,
  };
}
