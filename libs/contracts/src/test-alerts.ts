import type { DeliveryChannel } from './alert-vocabulary';

// The recurring test alert to the staff test group (issue #38): Admin Settings' schedule, and who is in the group.

/** How often the recurring test alert goes out: never (the default), every day, or on one day of the week. */
export const TEST_SCHEDULE_FREQUENCIES = ['off', 'daily', 'weekly'] as const;
export type TestScheduleFrequency = (typeof TEST_SCHEDULE_FREQUENCIES)[number];

/** The days of the week as JavaScript numbers them (Date.getDay): 0 is Sunday. */
export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** What every channel shows first of a test alert, and what the test alerts say: nobody takes one for a real warning. */
export const TEST_MARKER = 'TEST — ';
export const TEST_ALERT_MESSAGE = "This is a test of Beacon's alerting. No action is needed.";

/** The last time the schedule came due: the alert it sent, or why none went out. */
export interface TestRun {
  at: string;
  /** null when nothing went out (see skipped). */
  alertId: string | null;
  /** The staff it was addressed to. */
  recipients: number;
  /** no_members: nobody was in the test group; no_channels: every chosen channel was turned off in the settings. */
  skipped: 'no_members' | 'no_channels' | null;
}

/** GET/PUT /api/alerts/admin/settings/test-schedule. */
export interface TestSchedule {
  frequency: TestScheduleFrequency;
  /** 0 (Sunday) to 6 (Saturday), read when weekly. */
  weekday: number;
  /** Local time of day, HH:MM on a 24-hour clock, in timeZone. */
  time: string;
  /** The IANA time zone the day and time are read in (e.g. America/New_York): the same local time across DST changes. */
  timeZone: string;
  /** The channels it tests; at each run those turned off in the settings meanwhile are left out. */
  channels: DeliveryChannel[];
  /** When it next goes out; null while off. */
  nextRunAt: string | null;
  lastRun: TestRun | null;
  updatedAt: string | null;
  updatedBy: string | null;
}

/** A staff member who opted in to the recurring test alert. */
export interface TestGroupMember {
  userId: string;
  email: string | null;
  joinedAt: string;
  /** The schedule's channels their alert preferences and devices reach now (push: a browser subscribed). */
  reachableBy: DeliveryChannel[];
}

/** GET /api/alerts/admin/test-group: the staff test group, the audience of the recurring test alert. */
export interface TestGroup {
  members: TestGroupMember[];
}

/** GET/PUT /api/alerts/admin/test-group/me: whether the signed-in staff member receives the recurring test alert. */
export interface TestGroupMembership {
  member: boolean;
  joinedAt: string | null;
}
