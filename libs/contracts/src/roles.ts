/**
 * Who may do what in Beacon (issue #38). A user is the public; the four staff roles are ordered, each holding every
 * right of the ones before it: a viewer reads the console, a publisher writes drafts and sends where the approval
 * policy allows, an approver also approves colleagues' alerts, an admin also changes settings and roles.
 */
export const ROLES = ['user', 'viewer', 'publisher', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const STAFF_ROLES = ['viewer', 'publisher', 'approver', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  user: 'User',
  viewer: 'Viewer',
  publisher: 'Publisher',
  approver: 'Approver',
  admin: 'Administrator',
};

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

/** The roles that hold at least `min`'s rights, lowest first: what a route needing `min` lets in. */
export function rolesAtLeast(min: StaffRole): Role[] {
  return ROLES.slice(ROLES.indexOf(min));
}

/** Whether `role` holds at least `min`'s rights (undefined: signed out, none). */
export function hasRole(role: Role | null | undefined, min: StaffRole): boolean {
  return !!role && ROLES.indexOf(role) >= ROLES.indexOf(min);
}

/** Any staff role: the console is theirs (read-only for a viewer). */
export const isStaff = (role: Role | null | undefined): boolean => hasRole(role, 'viewer');
