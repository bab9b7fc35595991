/**
 * The incident vocabulary, shared by the incidents service, the alerts service (which turns a verified
 * wrong-way-driver report into a draft alert) and the web app. The stored `type` VALUES never change once
 * shipped (rows and queued events carry them); labels and descriptions may.
 */
export const INCIDENT_TYPES = ['traffic-hazard', 'crime', 'accident', 'wrong-way-driver', 'other'] as const;
export type IncidentType = (typeof INCIDENT_TYPES)[number];

export interface IncidentTypeInfo {
  value: IncidentType;
  label: string;
  description: string;
}

export const INCIDENT_TYPE_INFO: Record<IncidentType, IncidentTypeInfo> = {
  'traffic-hazard': { value: 'traffic-hazard', label: 'Traffic Hazard', description: 'Debris, potholes, stalled vehicles or other road dangers' },
  crime: { value: 'crime', label: 'Crime', description: 'Suspicious activity, theft, vandalism or violence' },
  accident: { value: 'accident', label: 'Accident', description: 'Vehicle collisions or injuries on the road' },
  'wrong-way-driver': { value: 'wrong-way-driver', label: 'Wrong-way Driver', description: 'A vehicle driving against traffic' },
  other: { value: 'other', label: 'Other', description: 'Any other safety concern' },
};

/**
 * The moderation queue's urgency ranking, most urgent first: these types come before every other type, in this
 * order (a wrong-way driver endangers lives within minutes, an accident blocks lanes and may need help). The
 * incidents service binds this array into its ORDER BY; the web app marks these types as urgent.
 */
export const URGENT_INCIDENT_TYPES = ['wrong-way-driver', 'accident'] as const satisfies readonly IncidentType[];

/** True for the types the moderation queue puts first. */
export const isUrgentIncidentType = (type: string): boolean => (URGENT_INCIDENT_TYPES as readonly string[]).includes(type);

/** Display label of a stored type; unknown values (from a newer release) show as they are. */
export const incidentTypeLabel = (type: string): string => INCIDENT_TYPE_INFO[type as IncidentType]?.label ?? type;

/**
 * pending: new, seen only by its reporter and admins. verified: confirmed by an admin (or auto-approved),
 * public. rejected: refused by an admin. resolved: was verified, is over.
 */
export const INCIDENT_STATUSES = ['pending', 'verified', 'rejected', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** Status changes an admin may make; anything else is refused. */
export const INCIDENT_TRANSITIONS: Record<IncidentStatus, readonly IncidentStatus[]> = {
  pending: ['verified', 'rejected'],
  verified: ['resolved', 'rejected'],
  rejected: ['verified'],
  resolved: [],
};

/** Limits shared by the wizard and the API. */
export const INCIDENT_LIMITS = {
  descriptionMin: 10,
  descriptionMax: 500,
  locationNameMax: 200,
  /** Photos and community images. */
  photoMaxBytes: 5 * 1024 * 1024,
  nearbyRadiusKm: 1,
  nearbyLimit: 50,
  duplicateRadiusM: 50,
  duplicateWindowMinutes: 30,
} as const;

/** The spec's exact texts, used by the API's validation and by the wizard. */
export const INCIDENT_MESSAGES = {
  typeRequired: 'Please select an incident type',
  descriptionMin: 'Description must be at least 10 characters',
  descriptionMax: 'Description must be less than 500 characters',
  photoTooLarge: 'Photo must be less than 5MB',
  invalidImage: 'Please select a valid image file',
  locationRequired: 'Please select a location for the incident',
  stepFields: 'Please fill in all required fields',
  stepLocation: 'Please select a location on the map',
  submitted: 'Incident reported successfully!',
  submitFailed: 'Failed to submit incident. Please try again.',
  notAuthenticated: 'User not authenticated',
} as const;

/** Geolocation (browser) messages and options, shared by every location picker. */
export const GEOLOCATION_MESSAGES = {
  detected: 'Location detected successfully',
  failed: 'Unable to get your location. Please select manually on the map.',
  unsupported: 'Geolocation is not supported by this browser',
} as const;
export const GEOLOCATION_OPTIONS = { enableHighAccuracy: true, timeout: 10_000, maximumAge: 5 * 60_000 } as const;

/** Storage buckets for uploaded images; the object key is `{bucket}/{userId}/{timestamp}.{ext}`. */
export const UPLOAD_BUCKETS = ['incident-photos', 'community-post-photos'] as const;
export type UploadBucket = (typeof UPLOAD_BUCKETS)[number];

export interface UploadResult {
  /** Storage key to send back when creating the incident or post. */
  path: string;
  /** Where the re-encoded image is served (same origin). */
  url: string;
  contentType: string;
  size: number;
}

export interface Incident {
  id: string;
  type: IncidentType;
  description: string;
  locationName: string | null;
  lat: number;
  lng: number;
  photoUrl: string | null;
  status: IncidentStatus;
  /** The reporter's id: present for the reporter and for admins only. */
  reportedBy: string | null;
  /** True when the caller reported it. */
  mine: boolean;
  autoApproved: boolean;
  moderatedAt: string | null;
  moderationNote: string | null;
  createdAt: string;
  updatedAt: string;
  /** Metres from the query point (nearby and duplicate queries only). */
  distanceM?: number;
}

/** What the public safety map gets: verified reports, no reporter, no photo. */
export interface PublicIncident {
  id: string;
  type: IncidentType;
  description: string;
  locationName: string | null;
  lat: number;
  lng: number;
  createdAt: string;
}

export interface PossibleDuplicate {
  id: string;
  type: IncidentType;
  status: IncidentStatus;
  distanceM: number;
  createdAt: string;
  /** Only for verified reports or the caller's own; another user's pending text stays private. */
  description: string | null;
  locationName: string | null;
}

export interface IncidentPage {
  items: Incident[];
  total: number;
}

/** How a reporter's reports fared: counts of their OTHER reports (the one being moderated is not counted). */
export interface ReporterHistory {
  /** Verified, or verified and since resolved (auto-approved ones included). */
  verified: number;
  rejected: number;
  /** Still waiting for moderation. */
  pending: number;
}

/** Who made a report, as the incidents service knows it (admins only). */
export interface IncidentReporter {
  id: string;
  /** The e-mail the reporter's token carried when they reported; null for reports made before it was recorded. */
  email: string | null;
  history: ReporterHistory;
}

/** A report in the moderation queue: the report and its reporter with their track record. */
export interface ModerationIncident extends Incident {
  reporter: IncidentReporter;
}

/** GET /incidents/moderation-queue: pending reports, urgent types first (URGENT_INCIDENT_TYPES), then oldest first. */
export interface ModerationQueuePage {
  items: ModerationIncident[];
  total: number;
}

/** GET /incidents/moderation-queue/count: how many reports wait for moderation (the admin menu's badge). */
export interface ModerationQueueCount {
  pending: number;
}
