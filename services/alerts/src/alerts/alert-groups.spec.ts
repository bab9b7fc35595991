import { randomUUID } from 'node:crypto';
import { ALERT_GROUPS_MAX } from '@beacon/contracts';
import { eligiblePredicate, eligibleUsersSql, SqlParams } from '../deliveries/eligibility.sql';
import { assertAreaChosen, toAlertArea } from './alert-area';
import { assertGroupsFound, toGroupIds } from './alert-groups';
import type { AlertRow } from './alert.rows';
import type { NewAlert } from './alerts.repository';
import { requestFingerprint } from './alerts.service';
import { afterChanges, changedFields } from './revisions.repository';
import { toChanges } from './revisions.service';

const SCHOOL = '3f6c2a9e-5d4b-4c1a-9e8f-7a6b5c4d3e2f';
const ROADS = '8a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

function errorOf(f: () => unknown): { code?: string; status?: number; message: string } | undefined {
  try {
    f();
  } catch (e) {
    return e as { code?: string; status?: number; message: string };
  }
  return undefined;
}

describe("an alert's contact groups (issue #42)", () => {
  it('merges duplicates, a UUID in capitals included, keeping the order given; absent stays absent', () => {
    expect(toGroupIds([ROADS, SCHOOL.toUpperCase(), ROADS, SCHOOL])).toEqual([ROADS, SCHOOL]);
    expect(toGroupIds([])).toEqual([]);
    expect(toGroupIds(undefined)).toBeUndefined();
    expect(toGroupIds(null)).toBeUndefined();
  });

  it(`refuses more than ${ALERT_GROUPS_MAX} groups after merging (400 alert_too_many_groups)`, () => {
    const ids = Array.from({ length: ALERT_GROUPS_MAX }, () => randomUUID());
    expect(toGroupIds([...ids, ids[0]])).toHaveLength(ALERT_GROUPS_MAX);
    expect(errorOf(() => toGroupIds([...ids, randomUUID()]))).toMatchObject({ code: 'alert_too_many_groups', status: 400 });
  });

  it('names the groups that do not exist (400 alert_group_not_found)', () => {
    expect(() => assertGroupsFound([])).not.toThrow();
    const one = errorOf(() => assertGroupsFound([SCHOOL]));
    expect(one).toMatchObject({ code: 'alert_group_not_found', status: 400 });
    expect(one!.message).toContain(`Contact group ${SCHOOL} does not exist`);
    expect(errorOf(() => assertGroupsFound([SCHOOL, ROADS]))!.message).toContain(`${SCHOOL}, ${ROADS}`);
  });

  describe('an area, groups, or everyone', () => {
    const circle = toAlertArea({ lat: 33.4, lng: -112, radiusKm: 5 });
    const none = toAlertArea({});

    it('sends to groups with no area and no everyone, and to an area and groups', () => {
      expect(() => assertAreaChosen(none, undefined, true, [SCHOOL])).not.toThrow();
      expect(() => assertAreaChosen(circle, false, true, [SCHOOL])).not.toThrow();
    });

    it('refuses groups with everyone, sent or saved (groups_and_everyone); still needs a choice with none of them', () => {
      expect(errorOf(() => assertAreaChosen(none, true, true, [SCHOOL]))?.code).toBe('groups_and_everyone');
      expect(errorOf(() => assertAreaChosen(none, true, false, [SCHOOL]))?.code).toBe('groups_and_everyone');
      expect(errorOf(() => assertAreaChosen(none, undefined, true, []))?.code).toBe('area_required');
      expect(() => assertAreaChosen(none, true, true, [])).not.toThrow();
    });
  });

  describe('an update of them', () => {
    const row = (over: Partial<AlertRow> = {}) =>
      ({
        id: randomUUID(),
        title: 'Gas leak',
        message: 'Leave the building.',
        translations: {},
        severity: 'high',
        category: 'public_safety',
        status: 'active',
        source: 'admin',
        created_by: null,
        location_name: null,
        lat: 33.4,
        lng: -112,
        radius_km: 5,
        area_polygon: null,
        area_parts: null,
        group_ids: [SCHOOL],
        expires_at: null,
        channels: ['sms'],
        ...over,
      }) as AlertRow;

    it('replaces them whole, absent or null leaving them, and counts a change of them as a change of whom it targets', () => {
      expect(toChanges({ groupIds: [ROADS, ROADS] }).groupIds).toEqual([ROADS]);
      expect(toChanges({}).groupIds).toBeUndefined();
      expect(toChanges({ groupIds: null as never }).groupIds).toBeUndefined();
      expect(afterChanges(row(), toChanges({ groupIds: [ROADS] })).group_ids).toEqual([ROADS]);
      expect(afterChanges(row(), toChanges({})).group_ids).toEqual([SCHOOL]);
      expect(changedFields(row(), toChanges({ groupIds: [ROADS] }))).toEqual(['area']);
      expect(changedFields(row({ group_ids: [SCHOOL, ROADS] }), toChanges({ groupIds: [ROADS, SCHOOL] }))).toEqual([]);
      expect(changedFields(row(), toChanges({ groupIds: [ROADS], title: 'Gas leak, street closed' }))).toEqual(['title', 'area']);
    });

    it('keeps an alert in effect targeted: an area or groups, never everyone by losing both (area_required)', () => {
      const groupsOnly = row({ lat: null, lng: null, radius_km: null });
      expect(errorOf(() => afterChanges(groupsOnly, toChanges({ groupIds: [] })))?.code).toBe('area_required');
      expect(errorOf(() => afterChanges(row({ group_ids: [] }), toChanges({ area: null as never })))?.code).toBe('area_required');
      // the area dropped, the groups kept; the groups dropped, the area kept; a draft may have neither
      expect(afterChanges(row(), toChanges({ area: null as never }))).toMatchObject({ lat: null, group_ids: [SCHOOL] });
      expect(afterChanges(row(), toChanges({ groupIds: [] }))).toMatchObject({ lat: 33.4, group_ids: [] });
      expect(afterChanges({ ...groupsOnly, status: 'draft' }, toChanges({ groupIds: [] })).group_ids).toEqual([]);
    });
  });

  it('tells requests apart by their groups, in whatever order they were given', () => {
    const asked = (groupIds?: string[]): NewAlert => ({
      title: 'Lockdown',
      message: 'Stay inside.',
      type: 'emergency',
      severity: 'critical',
      category: 'security',
      locationName: null,
      lat: null,
      lng: null,
      radiusKm: null,
      expiresAt: null,
      channels: ['sms'],
      status: 'active',
      source: 'admin',
      createdBy: null,
      groupIds,
    });
    expect(requestFingerprint(asked([SCHOOL, ROADS]))).toBe(requestFingerprint(asked([ROADS, SCHOOL])));
    expect(requestFingerprint(asked([SCHOOL]))).not.toBe(requestFingerprint(asked([ROADS])));
    // no groups is the fingerprint the requests stored before groups existed
    expect(requestFingerprint(asked([]))).toBe(requestFingerprint(asked(undefined)));
  });

  describe('in the eligibility SQL', () => {
    const alert = {
      severity: 'high',
      category: 'weather',
      lat: 33.4,
      lng: -112,
      radius_km: 5,
      area_polygon: null,
      area_parts: null,
      source: 'admin',
      created_by: null,
    } as const;

    it('writes the statement of old for an alert without groups, reading no group table', () => {
      const sql = eligibleUsersSql({ ...alert, group_ids: [] }, new SqlParams());
      expect(sql).toBe(eligibleUsersSql(alert, new SqlParams()));
      expect(sql).not.toContain('contact_group');
    });

    it('adds the members to the area once (UNION), and reads only them for an alert with no area', () => {
      const both = eligibleUsersSql({ ...alert, group_ids: [SCHOOL] }, new SqlParams());
      expect(both).toContain('geo_strip');
      expect(both).toMatch(/\n\s+UNION\n\s+SELECT p\.user_id, p\.channel_mask, p\.may_hold FROM alerts\.user_preferences p WHERE p\.user_id IN \(/);
      const params = new SqlParams();
      const members = eligibleUsersSql({ ...alert, lat: null, lng: null, radius_km: null, group_ids: [SCHOOL] }, params);
      expect(members).not.toContain('geo_strip');
      expect(members).not.toContain('severity_threshold');
      expect(params.values).toEqual([[SCHOOL]]);
    });

    it('tests the area rule or membership, membership alone without an area', () => {
      const params = new SqlParams();
      const predicate = eligiblePredicate({ ...alert, lat: null, lng: null, radius_km: null, group_ids: [SCHOOL] }, params, 'q');
      expect(predicate).toMatch(/^q\.user_id IN \(SELECT u\.user_id FROM alerts\.contact_group_users u/);
      expect(eligiblePredicate({ ...alert, group_ids: [SCHOOL] }, new SqlParams(), 'q')).toMatch(/severity_threshold[\s\S]+OR q\.user_id IN \(/);
    });
  });
});
