import type { IntlShape } from 'react-intl';
import { ALERT_GROUPS_MAX, type AdminAlert, type AlertTargetGroup, type ContactGroup } from '@beacon/contracts';
import { defineMessages } from '@/i18n';

/**
 * An alert's contact groups (issue #42): the words the console says of them, and the rules the forms share. The staff
 * console stays English (README); these go through react-intl for their plurals, and each language's catalogue holds
 * them in English until the console is translated.
 */
export const GROUP_WORDS = defineMessages({
  legend: { id: 'admin.alertGroups.legend', defaultMessage: 'Contact groups (optional)' },
  hint: {
    id: 'admin.alertGroups.hint',
    defaultMessage:
      'Their members receive the alert wherever they live and whatever alert types they chose, on the channels they have on. With a group chosen, the area is optional: leave it empty to alert the groups only. At most {max, number} groups.',
  },
  searchLabel: { id: 'admin.alertGroups.searchLabel', defaultMessage: 'Search contact groups' },
  searchPlaceholder: { id: 'admin.alertGroups.searchPlaceholder', defaultMessage: 'Part of a group’s name' },
  chosenLabel: { id: 'admin.alertGroups.chosenLabel', defaultMessage: 'Chosen contact groups' },
  foundLabel: { id: 'admin.alertGroups.foundLabel', defaultMessage: 'Contact groups to choose from' },
  remove: { id: 'admin.alertGroups.remove', defaultMessage: 'Remove {name}' },
  more: { id: 'admin.alertGroups.more', defaultMessage: '{count, plural, one {# more group} other {# more groups}}: type part of a name to find it.' },
  none: { id: 'admin.alertGroups.none', defaultMessage: 'There are no contact groups yet: create them under <link>Contact groups</link>.' },
  noMatch: { id: 'admin.alertGroups.noMatch', defaultMessage: 'No contact group’s name contains “{search}”.' },
  loading: { id: 'admin.alertGroups.loading', defaultMessage: 'Loading the contact groups…' },
  loadFailed: { id: 'admin.alertGroups.loadFailed', defaultMessage: 'The contact groups could not be loaded.' },
  retry: { id: 'admin.alertGroups.retry', defaultMessage: 'Try again' },
  full: { id: 'admin.alertGroups.full', defaultMessage: 'An alert can target at most {max, number} contact groups: remove one to choose another.' },
  added: { id: 'admin.alertGroups.added', defaultMessage: '{name} added: {count, plural, one {# group} other {# groups}} chosen.' },
  removed: { id: 'admin.alertGroups.removed', defaultMessage: '{name} removed: {count, plural, =0 {no group} one {# group} other {# groups}} chosen.' },
  withEveryone: {
    id: 'admin.alertGroups.withEveryone',
    defaultMessage:
      'An alert to everyone, everywhere cannot also target contact groups: choose Circle or Polygon above to pick groups, with or without an area.',
  },
  sentToEveryone: {
    id: 'admin.alertGroups.sentToEveryone',
    defaultMessage: 'This alert went to everyone, everywhere: contact groups cannot be added to it unless you draw an area.',
  },
  everyoneNotOffered: {
    id: 'admin.alertGroups.everyoneNotOffered',
    defaultMessage: 'Everyone, everywhere is not offered while contact groups are chosen: remove them to choose it.',
  },
  members: { id: 'admin.alertGroups.members', defaultMessage: '{count, plural, one {# member} other {# members}}' },
  membersExternal: {
    id: 'admin.alertGroups.membersExternal',
    defaultMessage: '{count, plural, one {# member} other {# members}}, of them {external, number} without an account',
  },
  named: { id: 'admin.alertGroups.named', defaultMessage: '{name} ({members})' },
  // the review, the alert's page and the update form
  title: { id: 'admin.alertGroups.title', defaultMessage: 'Contact groups' },
  noneChosen: { id: 'admin.alertGroups.noneChosen', defaultMessage: 'None' },
  noArea: { id: 'admin.alertGroups.noArea', defaultMessage: 'No area: only the members of its contact groups' },
  changed: { id: 'admin.alertGroups.changed', defaultMessage: 'contact groups' },
  afterUpdate: { id: 'admin.alertGroups.afterUpdate', defaultMessage: 'Contact groups after the update: {names}.' },
  noneAfterUpdate: { id: 'admin.alertGroups.noneAfterUpdate', defaultMessage: 'No contact groups after the update.' },
  // the rules, and the server's refusals at the field
  areaOrGroup: {
    id: 'admin.alertGroups.areaOrGroup',
    // starts with the server's words for area_required, which the wizard says without groups
    defaultMessage: 'Choose where this alert applies, or choose to send it to everyone, or pick a contact group',
  },
  keepOne: {
    id: 'admin.alertGroups.keepOne',
    defaultMessage: 'This alert has no area: keep at least one contact group, or draw an area, so that it still reaches someone.',
  },
  tooMany: {
    id: 'admin.alertGroups.tooMany',
    defaultMessage: 'An alert can target at most {max, number} contact groups: remove {extra, plural, one {# group} other {# groups}}.',
  },
  andEveryone: {
    id: 'admin.alertGroups.andEveryone',
    defaultMessage: 'An alert to everyone, everywhere cannot also target contact groups: remove the groups, or choose an area instead of everyone.',
  },
  gone: {
    id: 'admin.alertGroups.gone',
    defaultMessage:
      '{count, plural, one {{names} no longer exists (it was deleted after you chose it): remove it, then send again.} other {{names} no longer exist (they were deleted after you chose them): remove them, then send again.}}',
  },
  goneUnnamed: {
    id: 'admin.alertGroups.goneUnnamed',
    defaultMessage: 'A contact group you chose no longer exists (deleted after you chose it): remove it, then send again. The server said: {message}',
  },
});

/** The error codes of an alert's groups (issue #42), which the forms show at the groups. */
const GROUP_ERROR_CODES = ['alert_group_not_found', 'alert_too_many_groups', 'groups_and_everyone'] as const;
type GroupErrorCode = (typeof GROUP_ERROR_CODES)[number];
export const isGroupErrorCode = (code: unknown): code is GroupErrorCode => GROUP_ERROR_CODES.includes(code as GroupErrorCode);

/**
 * A server's refusal of the groups in the console's words: the group that no longer exists by its name (the server
 * names it by its id, which the admin never saw), how many to remove, or that everyone excludes groups.
 */
export function groupErrorText(intl: IntlShape, code: GroupErrorCode, serverMessage: string, chosen: readonly AlertTargetGroup[]): string {
  if (code === 'alert_too_many_groups')
    return intl.formatMessage(GROUP_WORDS.tooMany, { max: ALERT_GROUPS_MAX, extra: Math.max(1, chosen.length - ALERT_GROUPS_MAX) });
  if (code === 'groups_and_everyone') return intl.formatMessage(GROUP_WORDS.andEveryone);
  const said = serverMessage.toLowerCase();
  const gone = chosen.filter((g) => said.includes(g.id.toLowerCase()));
  if (!gone.length) return intl.formatMessage(GROUP_WORDS.goneUnnamed, { message: serverMessage });
  const names = intl.formatList(
    gone.map((g) => `“${g.name}”`),
    { type: 'conjunction' },
  );
  return intl.formatMessage(GROUP_WORDS.gone, { count: gone.length, names });
}

/** What the groups a form holds break (too many; with everyone), or undefined. */
export function groupsProblem(intl: IntlShape, groups: readonly AlertTargetGroup[], everyone: boolean): string | undefined {
  if (groups.length > ALERT_GROUPS_MAX) return intl.formatMessage(GROUP_WORDS.tooMany, { max: ALERT_GROUPS_MAX, extra: groups.length - ALERT_GROUPS_MAX });
  if (groups.length > 0 && everyone) return intl.formatMessage(GROUP_WORDS.andEveryone);
  return undefined;
}

/** A group as an alert targets it, from the contact groups' list. */
export const targetGroupOf = (g: ContactGroup | AlertTargetGroup): AlertTargetGroup => ({
  id: g.id,
  name: g.name,
  memberCount: g.memberCount,
  externalCount: g.externalCount,
});

/** "12 members, of them 3 without an account", or "1 member". */
export const membersText = (intl: IntlShape, g: Pick<AlertTargetGroup, 'memberCount' | 'externalCount'>) =>
  g.externalCount > 0
    ? intl.formatMessage(GROUP_WORDS.membersExternal, { count: g.memberCount, external: g.externalCount })
    : intl.formatMessage(GROUP_WORDS.members, { count: g.memberCount });

/** "Road crews (12 members, of them 3 without an account)". */
export const groupText = (intl: IntlShape, g: AlertTargetGroup) => intl.formatMessage(GROUP_WORDS.named, { name: g.name, members: membersText(intl, g) });

/** The same groups, whatever their order (an update sends them only when they changed). */
export const sameGroups = (a: readonly { id: string }[], b: readonly { id: string }[]) =>
  a.length === b.length && [...a.map((g) => g.id)].sort().join() === [...b.map((g) => g.id)].sort().join();

/**
 * An alert stored with neither an area nor a group: it goes to everyone, everywhere, and every send of it says so
 * (issue #38). One with groups and no area goes to the groups' members only.
 */
export const isEveryoneAlert = (a: Pick<AdminAlert, 'area' | 'lat' | 'lng' | 'groups'>) =>
  !a.area && (a.lat === null || a.lng === null) && a.groups.length === 0;
