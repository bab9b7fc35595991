import type { PublicAlertRow } from '../cap/cap.repository';

/** A published alert as the CAP repository reads it, for the feed's unit specs: a critical wrong-way driver on Loop 101. */
export const publicAlertRow = (over: Partial<PublicAlertRow> = {}): PublicAlertRow => ({
  id: '6f1c1f43-2b3d-4c7e-9a41-1d2f3e4a5b6c',
  title: 'Wrong-way driver on Loop 101',
  message: 'A wrong-way driver is heading north on Loop 101 near Tatum.',
  translations: {},
  type: 'Wrong-way Driver',
  severity: 'critical',
  category: 'traffic',
  location_name: 'Loop 101 at Tatum Blvd',
  lat: 33.45,
  lng: -112.07,
  radius_km: 5,
  area_polygon: null,
  expires_at: new Date('2026-11-25T12:00:00Z'),
  channels: ['push'],
  status: 'active',
  source: 'admin',
  created_by: null,
  recipients: 1,
  dispatched_at: new Date('2026-11-25T10:00:00Z'),
  sent_at: new Date('2026-11-25T10:00:00Z'),
  created_at: new Date('2026-11-25T10:00:00Z'),
  updated_at: new Date('2026-11-25T10:00:00Z'),
  ended_at: null,
  ...over,
});
