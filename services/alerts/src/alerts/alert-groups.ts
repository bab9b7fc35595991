import { ALERT_GROUPS_MAX } from '@beacon/contracts';
import { badRequest } from '@beacon/common';

/**
 * The contact groups a create, a draft's edit or an update asks an alert to target (issue #42), as stored: ids in the
 * order given, duplicates merged (a UUID in capitals is the same group), undefined when not given (an update keeps
 * the alert's). More than ALERT_GROUPS_MAX: 400 alert_too_many_groups.
 */
export function toGroupIds(ids: readonly string[] | null | undefined): string[] | undefined {
  if (ids === undefined || ids === null) return undefined;
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (unique.length > ALERT_GROUPS_MAX) {
    throw badRequest(`An alert can go to at most ${ALERT_GROUPS_MAX} contact groups; ${unique.length} were chosen`, 'alert_too_many_groups');
  }
  return unique;
}

/** 400 alert_group_not_found naming the groups asked for that do not exist (`missing`, none when all do). */
export function assertGroupsFound(missing: readonly string[]) {
  if (!missing.length) return;
  const named = missing.length === 1 ? `Contact group ${missing[0]} does not exist` : `Contact groups ${missing.join(', ')} do not exist`;
  throw badRequest(`${named} (deleted, or never made): choose the alert's groups again`, 'alert_group_not_found');
}
