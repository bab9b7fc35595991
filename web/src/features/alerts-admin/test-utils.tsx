import type { ReactElement } from 'react';
import { emptyCounts, type AdminAlert, type AlertSummary, type ChannelHealth, type ChannelHealthReport, type DeliveryChannel } from '@beacon/contracts';
import { renderSignedIn } from '@/test/render-screen';
import { alertSummary } from '@/features/alerts/test-utils';

export { pageOf, requestOf } from '@/features/alerts/test-utils';

const ADMIN = { id: '00000000-0000-4000-8000-0000000000ad', email: 'chief.ops@beacon.local', role: 'admin' } as const;

/** Renders one alert screen at `path` (started at `route`), signed in as an admin. */
export function renderScreen(ui: ReactElement, { path = '/', route = path }: { path?: string; route?: string } = {}) {
  return renderSignedIn(ui, { user: ADMIN, path, route });
}

export function adminAlert(o: Partial<AdminAlert> = {}): AdminAlert {
  return {
    ...alertSummary(o),
    translations: {},
    createdBy: ADMIN.id,
    updatedAt: new Date().toISOString(),
    revision: 1,
    sentAt: new Date().toISOString(),
    source: 'admin',
    recipients: 1,
    summary: { push: { ...emptyCounts(), sent: 1 } },
    // accepted by the provider, no receipt yet (issue #39: never All Delivered for that)
    deliveryLabel: 'Sent to provider',
    successRate: 100,
    responses: { safe: 0, needHelp: 0, helpOpen: 0 },
    reminder: null,
    concerned: null,
    // issue #38: the author's e-mail, a schedule, the approval asked for, a break-glass send
    createdByEmail: ADMIN.email,
    sendAt: null,
    approval: null,
    breakGlass: null,
    groups: [],
    ...o,
  };
}

/** What the gateway's alert events carry of an alert: every AlertSummary field (a missing one fails the compile). */
const SUMMARY_FIELDS = {
  id: true,
  title: true,
  message: true,
  severity: true,
  priority: true,
  category: true,
  type: true,
  status: true,
  locationName: true,
  lat: true,
  lng: true,
  radiusKm: true,
  area: true,
  channels: true,
  createdAt: true,
  expiresAt: true,
  version: true,
  allClear: true,
  lastChange: true,
} satisfies Record<keyof AlertSummary, true>;

/** The summary of `a` the gateway's alert events carry: the AlertSummary fields, nothing of the admin's view. */
export function summaryOf(a: AdminAlert): AlertSummary {
  return Object.fromEntries(Object.keys(SUMMARY_FIELDS).map((k) => [k, a[k as keyof AlertSummary]])) as unknown as AlertSummary;
}

/** One channel's provider health (GET /api/alerts/admin/channel-health): ready, never tested, receipts on, nobody reachable. */
export function channelHealth(channel: DeliveryChannel, o: Partial<ChannelHealth> = {}): ChannelHealth {
  const provider = ({ push: 'push_services', sms: 'webhook', email: 'relay', voice: 'twilio' } as const)[channel];
  return {
    channel,
    provider,
    configured: true,
    problem: null,
    receipts: true,
    lastTest: null,
    lastError: null,
    receiptsLastHour: 0,
    reachableNow: 0,
    ...(channel === 'sms' ? { stoppedNumbers: 0 } : {}),
    ...o,
  };
}

export const healthReport = (...channels: ChannelHealth[]): ChannelHealthReport => ({ channels, checkedAt: '2026-11-29T10:00:00.000Z' });
