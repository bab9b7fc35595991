import type { ReactElement } from 'react';
import { AUDIENCE_TOKEN_HEADER, type AlertAudience, type DeliveryChannel, type StaffRole } from '@beacon/contracts';
import { renderSignedIn } from '@/test/render-screen';

/** The alert pages' specs (issue #38): audience previews as the server answers them, and staff of each role. */

let tokens = 0;

/** A preview of `recipients` people on `channel`, with a token of its own (the header a send must carry). */
export function audienceOf(recipients: number, o: Partial<AlertAudience> & { channel?: DeliveryChannel } = {}): AlertAudience {
  const { channel = 'push', ...rest } = o;
  return {
    token: `audience-token-${++tokens}`,
    concerned: recipients,
    recipients,
    held: 0,
    channels: { [channel]: { recipients, held: 0, configured: true } },
    unreachable: { noChannel: 0, noDevice: 0 },
    ...rest,
  };
}

/** What an alert that has not gone out holds (a draft, scheduled, awaiting approval): no recipients, no counts, no rate. */
export const NOT_SENT = { sentAt: null, recipients: null, summary: {}, deliveryLabel: 'Not Sent', successRate: null } as const;

/** The 409 of a send whose audience moved since its preview: the server's words and the audience as it is now. */
export const audienceChanged = (fresh: AlertAudience) => ({
  statusCode: 409,
  code: 'audience_changed',
  message: `The audience changed since the preview: it is now ${fresh.recipients} people. Confirm again to send.`,
  details: { audience: fresh },
});

/** The Audience-Token header of a request (null without one). */
export const tokenOf = (req: Request) => req.headers.get(AUDIENCE_TOKEN_HEADER);

export const STAFF = {
  viewer: { id: '00000000-0000-4000-8000-0000000000a1', email: 'watch.desk@beacon.local', role: 'viewer' },
  publisher: { id: '00000000-0000-4000-8000-0000000000a2', email: 'duty.officer@beacon.local', role: 'publisher' },
  approver: { id: '00000000-0000-4000-8000-0000000000a3', email: 'shift.lead@beacon.local', role: 'approver' },
} as const satisfies Record<Exclude<StaffRole, 'admin'>, { id: string; email: string; role: StaffRole }>;

/** Renders one screen signed in as a member of staff of `role`. */
export function renderAs(role: keyof typeof STAFF, ui: ReactElement, { path = '/', route = path }: { path?: string; route?: string } = {}) {
  return renderSignedIn(ui, { user: { ...STAFF[role] }, path, route });
}
