import { expect, test } from '@playwright/test';

/**
 * The push service worker in a real Chromium: a Web Push message delivered to it (through the DevTools protocol,
 * as a push service would; there is none offline) becomes the spec's notification, and its receipt reaches the
 * alerts service's receipt route.
 */
test.use({ permissions: ['notifications'] });

test('a push message becomes a notification with the alert, and the worker reports it shown', async ({ page, context }) => {
  const receipts: unknown[] = [];
  // Chromium lets a context intercept its service workers' requests: the receipt is checked here, not stored.
  await context.route('**/api/alerts/deliveries/*/receipt', async (route) => {
    receipts.push({ url: new URL(route.request().url()).pathname, body: route.request().postDataJSON() });
    await route.fulfill({ status: 204 });
  });

  await page.goto('/');
  const cdp = await context.newCDPSession(page);
  const registered = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((r: { scopeURL: string; isDeleted: boolean }) => !r.isDeleted && r.scopeURL.startsWith(new URL(page.url()).origin));
      if (mine) resolve(mine.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  expect(
    await page.evaluate(async () => {
      await navigator.serviceWorker.register('/push-sw.js');
      const ready = await navigator.serviceWorker.ready;
      return Boolean(ready.active);
    }),
  ).toBe(true);
  const registrationId = await registered;

  const alertId = '3f1c2b9e-4d5a-4e6f-8a7b-9c0d1e2f3a4b';
  const deliveryId = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d';
  const payload = {
    alertId,
    deliveryId,
    title: 'Wrong-way driver on I-10',
    body: 'Heading west near 7th St. Move right and slow down.',
    severity: 'critical',
    category: 'traffic',
    type: 'Traffic',
    url: `/alerts/${alertId}`,
    priority: 10,
    ttl: 3600,
    requireInteraction: true,
    receipt: { url: `${new URL(page.url()).origin}/api/alerts/deliveries/${deliveryId}/receipt`, delivered: 'token-delivered', ack: 'token-ack' },
  };
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(page.url()).origin, registrationId, data: JSON.stringify(payload) });

  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration('/push-sw.js');
        const shown = (await registration?.getNotifications()) ?? [];
        // `actions` is Chromium's (not in TypeScript's DOM library yet).
        return shown.map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          requireInteraction: n.requireInteraction,
          actions: (n as Notification & { actions: { title: string }[] }).actions.map((a) => a.title),
          url: n.data?.url,
        }));
      }),
    )
    .toEqual([
      {
        title: '\u{1F6A8} Wrong-way driver on I-10',
        body: payload.body,
        tag: `alert-${alertId}`,
        requireInteraction: true,
        actions: ['View Alert', 'Acknowledge'],
        url: `/alerts/${alertId}`,
      },
    ]);
  await expect.poll(() => receipts).toEqual([{ url: `/api/alerts/deliveries/${deliveryId}/receipt`, body: { event: 'delivered', token: 'token-delivered' } }]);
});
