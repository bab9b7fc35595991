import { CreateIdentity1763800000000 } from './1763800000000-CreateIdentity';
import { StaffRoles1764730000000 } from './1764730000000-StaffRoles';

/** In order. Never edit a shipped migration: add a new one. */
export const migrations = [CreateIdentity1763800000000, StaffRoles1764730000000];
