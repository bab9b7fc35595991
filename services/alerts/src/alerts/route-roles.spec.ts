import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { loadEnv, routesOf } from '@beacon/common';
import type { DiscoveredRoute, RouteAccess } from '@beacon/common';
import { alertsService } from '../service';

/**
 * The alerts service's role table (issue #38), route by route: a viewer reads the console, a publisher writes and
 * sends, an approver approves, an administrator changes settings and CAP sources. A route added without a line here
 * fails, so nobody's new route is open to the wrong role by default. What the guard enforces is what the OpenAPI
 * document says (both read the same @MinRole metadata), so this holds for both.
 */
const ROLE_TABLE: Record<string, RouteAccess> = {
  // the public and every signed-in person
  'GET /api/alerts/health': 'public',
  'GET /api/alerts/ready': 'public',
  'GET /api/alerts/cap/alerts.atom': 'public',
  'GET /api/alerts/cap/alerts/{id}.xml': 'public',
  'GET /api/alerts/push/public-key': 'public',
  'POST /api/alerts/deliveries/{id}/receipt': 'public',
  // issue #39: the providers' callbacks, each checking its provider's signature instead of a session
  'POST /api/alerts/providers/webhook/status': 'public',
  'POST /api/alerts/providers/webhook/inbound': 'public',
  'POST /api/alerts/providers/twilio/sms/status': 'public',
  'POST /api/alerts/providers/twilio/sms/inbound': 'public',
  'POST /api/alerts/providers/twilio/voice/status': 'public',
  'POST /api/alerts/providers/twilio/voice/gather': 'public',
  'POST /api/alerts/providers/email/events': 'public',
  'GET /api/alerts/me/alerts': 'user',
  'GET /api/alerts/me/alerts/active': 'user',
  'GET /api/alerts/me/alerts/{id}': 'user',
  // issue #40: the unread count, an ended alert dismissed, places for the home
  'GET /api/alerts/me/alerts/unread-count': 'user',
  'POST /api/alerts/me/alerts/{id}/dismiss': 'user',
  'GET /api/alerts/me/places': 'user',
  'GET /api/alerts/me/places/reverse': 'user',
  'POST /api/alerts/me/alerts/{id}/read': 'user',
  'POST /api/alerts/me/alerts/{id}/help': 'user',
  'GET /api/alerts/me/preferences': 'user',
  'PUT /api/alerts/me/preferences': 'user',
  'POST /api/alerts/me/push-subscriptions': 'user',
  'DELETE /api/alerts/me/push-subscriptions': 'user',

  // viewer: every read of the console
  'GET /api/alerts': 'viewer',
  'GET /api/alerts/export.csv': 'viewer',
  'GET /api/alerts/stats': 'viewer',
  'GET /api/alerts/recent': 'viewer',
  'GET /api/alerts/{id}': 'viewer',
  'GET /api/alerts/{id}/deliveries': 'viewer',
  'GET /api/alerts/{id}/deliveries.csv': 'viewer',
  'GET /api/alerts/{id}/operations': 'viewer',
  'GET /api/alerts/{id}/versions': 'viewer',
  'GET /api/alerts/{id}/audit': 'viewer',
  // issue #42: the map of reach on the alert page
  'GET /api/alerts/{id}/reach': 'viewer',
  'GET /api/alerts/admin/help-requests': 'viewer',
  'GET /api/alerts/admin/settings/approval': 'viewer',
  // provider health beside each channel on the dashboard and in the composer (issue #39)
  'GET /api/alerts/admin/channel-health': 'viewer',
  'GET /api/alerts/admin/cap-sources': 'viewer',
  'GET /api/alerts/admin/cap-sources/{id}': 'viewer',
  'GET /api/alerts/admin/cap-sources/alerts/{alertId}': 'viewer',
  'GET /api/alerts/admin/cap-sources/alerts/{alertId}/original.xml': 'viewer',
  'GET /api/alerts/templates': 'viewer',
  'GET /api/alerts/templates/{id}': 'viewer',
  // every staff member names themselves into the staff test group (issue #38)
  'GET /api/alerts/admin/test-group/me': 'viewer',
  'PUT /api/alerts/admin/test-group/me': 'viewer',
  // contact groups (issue #42): staff read them, their members, export and audit trail
  'GET /api/alerts/admin/contact-groups': 'viewer',
  'GET /api/alerts/admin/contact-groups/{id}': 'viewer',
  'GET /api/alerts/admin/contact-groups/{id}/members': 'viewer',
  'GET /api/alerts/admin/contact-groups/{id}/export': 'viewer',
  'GET /api/alerts/admin/contact-groups/{id}/audit': 'viewer',

  // publisher: audiences, drafts, sends and what follows them, help requests' resolution, templates, address search
  'POST /api/alerts/audience': 'publisher',
  'GET /api/alerts/{id}/audience': 'publisher',
  'POST /api/alerts/{id}/update/audience': 'publisher',
  'POST /api/alerts/{id}/all-clear/audience': 'publisher',
  'POST /api/alerts/{id}/retry/audience': 'publisher',
  'POST /api/alerts/{id}/fallback/audience': 'publisher',
  'POST /api/alerts': 'publisher',
  'POST /api/alerts/{id}/send': 'publisher',
  'POST /api/alerts/{id}/update': 'publisher',
  'POST /api/alerts/{id}/all-clear': 'publisher',
  'POST /api/alerts/{id}/retry': 'publisher',
  'POST /api/alerts/{id}/fallback': 'publisher',
  'POST /api/alerts/{id}/cancel': 'publisher',
  'POST /api/alerts/{id}/break-glass': 'publisher',
  'POST /api/alerts/admin/help-requests/{id}/resolve': 'publisher',
  'POST /api/alerts/templates': 'publisher',
  'PUT /api/alerts/templates/{id}': 'publisher',
  'DELETE /api/alerts/templates/{id}': 'publisher',
  'GET /api/alerts/geocode': 'publisher',

  // approver: a colleague's alert
  'POST /api/alerts/{id}/approve': 'approver',
  'POST /api/alerts/{id}/reject': 'approver',

  // admin: channel settings and their tests, the approval policy, CAP sources
  'GET /api/alerts/admin/settings': 'admin',
  'PUT /api/alerts/admin/settings': 'admin',
  'POST /api/alerts/admin/settings/test-connection': 'admin',
  'POST /api/alerts/admin/settings/test-webhook': 'admin',
  'POST /api/alerts/admin/settings/test-email': 'admin',
  'POST /api/alerts/admin/settings/send-test-email': 'admin',
  'POST /api/alerts/admin/settings/test-twilio': 'admin',
  'POST /api/alerts/admin/settings/test-alert': 'admin',
  'PUT /api/alerts/admin/settings/approval': 'admin',
  'POST /api/alerts/admin/cap-sources': 'admin',
  'PUT /api/alerts/admin/cap-sources/{id}': 'admin',
  'DELETE /api/alerts/admin/cap-sources/{id}': 'admin',
  'POST /api/alerts/admin/cap-sources/{id}/poll': 'admin',
  // the recurring test alert's schedule, the test group's list, a test alert's CAP (issue #38)
  'GET /api/alerts/admin/settings/test-schedule': 'admin',
  'PUT /api/alerts/admin/settings/test-schedule': 'admin',
  'GET /api/alerts/admin/test-group': 'admin',
  'DELETE /api/alerts/admin/test-group/{userId}': 'admin',
  'GET /api/alerts/admin/test-alerts/{id}/cap.xml': 'admin',
  // contact groups (issue #42): administrators change them and their members
  'POST /api/alerts/admin/contact-groups': 'admin',
  'PATCH /api/alerts/admin/contact-groups/{id}': 'admin',
  'DELETE /api/alerts/admin/contact-groups/{id}': 'admin',
  'POST /api/alerts/admin/contact-groups/{id}/members': 'admin',
  'DELETE /api/alerts/admin/contact-groups/{id}/members/{memberId}': 'admin',
  'POST /api/alerts/admin/contact-groups/{id}/import/preview': 'admin',
  'POST /api/alerts/admin/contact-groups/{id}/import': 'admin',
};

describe("the alerts service's routes", () => {
  let app: INestApplication;
  let routes: DiscoveredRoute[];
  beforeAll(async () => {
    // the modules and controllers only: no database, no Redis
    app = await NestFactory.create(alertsService.module(loadEnv(alertsService.envClass, { NODE_ENV: 'test', LOG_LEVEL: 'silent' })), {
      preview: true,
      logger: false,
      abortOnError: false,
    });
    routes = routesOf(app, { name: 'alerts', prefix: alertsService.prefix });
  });
  afterAll(() => app.close());

  it('each need the role of the table (a route missing from it fails)', () => {
    const key = (r: DiscoveredRoute) => `${r.method.toUpperCase()} ${r.path}`;
    expect(routes.length).toBeGreaterThan(50);
    expect(Object.fromEntries(routes.map((r) => [key(r), r.access]))).toEqual(
      Object.fromEntries(routes.map((r) => [key(r), ROLE_TABLE[key(r)] ?? 'not in the table'])),
    );
  });
});
