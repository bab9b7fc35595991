import type { Language } from './languages';

/**
 * Contact groups (issue #42): named lists of people an alert can reach wherever they live (a school's staff, on-call
 * teams, road crews), as Everbridge and Rave keep them. A member is a Beacon user (by account e-mail) or an external
 * contact who has no account (name, phone, e-mail, language), reached by SMS, voice and e-mail, never push.
 */
export interface ContactGroup {
  id: string;
  name: string;
  description: string;
  /** Members in all, and of them, external contacts. */
  memberCount: number;
  externalCount: number;
  createdAt: string;
  updatedAt: string;
}

export type ContactGroupMember =
  | { id: string; kind: 'user'; userId: string; email: string; name: string | null; addedAt: string }
  | { id: string; kind: 'external'; contactId: string; name: string; phone: string | null; email: string | null; language: Language; addedAt: string };

/** GET /api/alerts/admin/contact-groups/:id/members (paged like the other admin lists). */
export interface ContactGroupMembersPage {
  items: ContactGroupMember[];
  total: number;
  page: number;
  pageSize: number;
}

/** What one member row of a CSV (or the add-member form) says; the CSV's header row names these columns. */
export interface ContactRowInput {
  name: string;
  phone?: string;
  email?: string;
  /** One of LANGUAGES; English when blank. */
  language?: string;
}

/** The CSV columns, in the order the export writes them and the import reads them (by header name, any order). */
export const CONTACT_CSV_COLUMNS = ['name', 'phone', 'email', 'language'] as const;

/** Import limits: rows per file and bytes per file. */
export const CONTACT_IMPORT_LIMITS = { maxRows: 10_000, maxBytes: 2 * 1024 * 1024 } as const;

/** Why a CSV row is not imported; `message` is what the console shows beside the row. */
export type ContactRowProblemCode =
  | 'missing_name'
  | 'missing_contact'
  | 'invalid_phone'
  | 'invalid_email'
  | 'invalid_language'
  | 'name_too_long'
  | 'duplicate_in_file'
  /** The row's phone number is one member's and its e-mail another's: which one it means is not for the import to guess. */
  | 'conflicting_members';

export interface ContactImportRejectedRow {
  /** 1-based line in the file, the header being line 1. */
  line: number;
  values: Record<string, string>;
  code: ContactRowProblemCode;
  message: string;
}

/**
 * POST /api/alerts/admin/contact-groups/:id/import/preview (text/csv body): what the import would do, nothing written.
 * `token` confirms exactly this preview: POST .../import with { token } applies it in one transaction, or answers
 * 409 import_preview_stale when the group or the file changed since. Rows that match a member already in the group
 * (same phone or e-mail, normalised) are `unchanged` (or `updated` when their name or language differs); duplicates
 * within the file are merged into the first and reported.
 * (Server, issue #42: an update also takes a phone or e-mail the row gives that differs or was missing; a blank cell
 * keeps the stored value, a blank language too. `update` lists each member as it will be. The token is 409
 * import_preview_expired once applied, after CONTACT_IMPORT_PREVIEW_TTL_SECONDS, or for another group.)
 */
export interface ContactImportPreview {
  token: string;
  create: ContactRowInput[];
  update: ContactRowInput[];
  unchanged: number;
  rejected: ContactImportRejectedRow[];
}

export interface ContactImportResult {
  created: number;
  updated: number;
  unchanged: number;
  rejected: number;
}

// ---------------------------------------------------------------- added by the server (issue #42)

/** A group's name (unique regardless of case) and description. */
export const CONTACT_GROUP_LIMITS = { nameMax: 100, descriptionMax: 500, membersPageSizeMax: 200, auditPageSizeMax: 200 } as const;

/** How long an import preview's token can be confirmed. */
export const CONTACT_IMPORT_PREVIEW_TTL_SECONDS = 30 * 60;

/** POST /api/alerts/admin/contact-groups; PATCH .../:id takes either field alone. */
export interface ContactGroupInput {
  name: string;
  description?: string;
}

/**
 * POST /api/alerts/admin/contact-groups/:id/members: a Beacon user by the e-mail of their account (known to the alerts
 * service once they have set up alerts: saved preferences or a device), or an external contact, checked like a CSV row.
 */
export type ContactMemberInput = { kind: 'user'; email: string } | ({ kind: 'external' } & ContactRowInput);

/** POST /api/alerts/admin/contact-groups/:id/import: confirms the preview that answered this token. */
export interface ContactImportConfirm {
  token: string;
}

export const CONTACT_GROUP_AUDIT_ACTIONS = ['group_created', 'group_updated', 'group_deleted', 'member_added', 'member_removed', 'import_applied'] as const;
export type ContactGroupAuditAction = (typeof CONTACT_GROUP_AUDIT_ACTIONS)[number];

/**
 * One change to a group, who made it and when. `details` by action: group_created/group_deleted { name, description? },
 * group_updated { before: {name, description}, after: {name, description} }, member_added/member_removed
 * { memberId, kind, name, email, phone } (user members: userId and email), import_applied { created, updated,
 * unchanged, rejected }.
 */
export interface ContactGroupAuditEntry {
  id: string;
  action: ContactGroupAuditAction;
  actorId: string | null;
  actorEmail: string | null;
  details: Record<string, unknown>;
  at: string;
}

/** GET /api/alerts/admin/contact-groups/:id/audit: newest first. */
export interface ContactGroupAuditPage {
  items: ContactGroupAuditEntry[];
  total: number;
  page: number;
  pageSize: number;
}

// ---------------------------------------------------------------- alerts to groups (issue #42)

/** Contact groups one alert may target. */
export const ALERT_GROUPS_MAX = 20;

/** A group an alert targets, as the console shows it: its name as now, and its members as now. */
export interface AlertTargetGroup {
  id: string;
  name: string;
  memberCount: number;
  externalCount: number;
}

/**
 * An audience preview's breakdown by what the alert targets (issue #42): how many people each part concerns on its
 * own. A person in two parts is counted in each here and once in the preview's `concerned`, so the parts may add up
 * to more than it.
 *
 * - `area`: the people its area concerns (its type and severity rules, their homes); null when it has no area.
 * - `areaParts`: for an area of several parts, the same by part in the area's order; absent otherwise.
 * - `groups`: each targeted group: its members whom the alert concerns (every member: a group's alert goes to them
 *   whatever their type and severity choices and wherever they live), of them external contacts.
 */
export interface AudienceByTarget {
  area: number | null;
  areaParts?: number[];
  groups: { id: string; name: string; concerned: number; external: number }[];
}
