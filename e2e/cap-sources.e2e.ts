import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, signIn } from './support/users';

/**
 * Official warnings in (issue 23): an admin adds an authority's CAP feed in Admin Settings, a draft appears from its
 * warning, and the admin reviews it (its page names the source and links to the original message) and sends it.
 */
const run = Date.now() % 100000;
const TITLE = `Dust storm warning for I-10 near Casa Grande ${run}`;
const capTime = (d: Date) => `${d.toISOString().slice(0, 19)}+00:00`;

const message = () => `<?xml version="1.0" encoding="UTF-8"?>
<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
  <identifier>e2e-dust-${run}</identifier>
  <sender>w-nws.webmaster@noaa.gov</sender>
  <sent>${capTime(new Date(Date.now() - 60_000))}</sent>
  <status>Actual</status>
  <msgType>Alert</msgType>
  <scope>Public</scope>
  <info>
    <language>en-US</language>
    <category>Met</category>
    <event>Dust Storm Warning</event>
    <urgency>Expected</urgency>
    <severity>Severe</severity>
    <certainty>Likely</certainty>
    <expires>${capTime(new Date(Date.now() + 3 * 3600_000))}</expires>
    <headline>${TITLE}</headline>
    <description>Visibility below a quarter mile in blowing dust.</description>
    <instruction>Pull aside, stay alive: pull off the road, lights off, foot off the brake.</instruction>
    <area>
      <areaDesc>I-10 near Casa Grande</areaDesc>
      <polygon>32.80,-111.90 32.95,-111.90 32.95,-111.60 32.80,-111.60 32.80,-111.90</polygon>
    </area>
  </info>
</alert>`;

let server: Server;
let feedUrl: string;

test.beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/feed.atom') {
      res.writeHead(200, { 'content-type': 'application/atom+xml' });
      return void res.end(
        `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><id>urn:e2e</id><title>NWS test office</title>` +
          `<updated>${new Date().toISOString()}</updated><entry><id>e2e-dust</id><title>Dust storm</title><updated>${new Date().toISOString()}</updated>` +
          `<link rel="alternate" type="application/cap+xml" href="/dust.xml"/></entry></feed>`,
      );
    }
    if (req.url === '/dust.xml') return void res.writeHead(200, { 'content-type': 'application/cap+xml' }).end(message());
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.atom`;
});

test.afterAll(async () => {
  await new Promise<void>((r) => server?.close(() => r()));
});

test('an admin adds a CAP source, a draft appears from it, and the admin reviews and sends it', async ({ page }) => {
  await signIn(page, DEMO_ADMIN, /\/dashboard$/);
  await page.goto('/admin/settings');
  await page.getByRole('button', { name: 'Add CAP source' }).click();
  const name = `NWS test office ${run}`;
  await page.getByLabel('Source name').fill(name);
  await page.getByLabel('Feed URL').fill(feedUrl);
  await page.getByLabel('Polling interval (seconds)').fill('60');
  await page.getByRole('checkbox', { name: 'Met', exact: true }).check();
  await page.getByLabel('When a message comes in').selectOption('draft');
  await page.getByRole('button', { name: 'Add source' }).click();
  const item = page.getByRole('listitem', { name });
  await expect(item).toBeVisible();
  await item.getByRole('button', { name: 'Fetch now' }).click();
  await expect(item.getByRole('status')).toHaveText('Fetched: 1 new, 0 updated, 0 ended, 0 refused');
  await expect(item.getByText('Working')).toBeVisible();

  await page.goto('/admin/alerts');
  const card = page.getByRole('listitem', { name: TITLE });
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card.getByText('Draft', { exact: true })).toBeVisible();
  await card.getByRole('link', { name: TITLE }).click();
  await expect(page.getByText(`Official warning (CAP) from`)).toBeVisible();
  await expect(page.getByText(name, { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Original message' })).toHaveAttribute('href', feedUrl.replace('/feed.atom', '/dust.xml'));
  await expect(page.getByText('Visibility below a quarter mile in blowing dust.', { exact: false })).toBeVisible();
  // Send Now asks first (issue #38), naming whom the warning's polygon reaches; only that confirmation sends.
  await page.getByRole('button', { name: `Send Now: ${TITLE}` }).click();
  const confirmation = page.getByRole('dialog', { name: `Send “${TITLE}” now?` });
  const send = confirmation.getByRole('button', { name: /^Send to ([\d,]+ (people|person)|nobody)$/ });
  await expect(send).toBeVisible();
  const reach = (await send.innerText()).replace('Send to ', '');
  const recipients = reach === 'nobody' ? 0 : Number(reach.replace(/\D/g, ''));
  await expect(confirmation).toContainText(recipients === 0 ? 'Nobody will receive this alert.' : `This alert will reach ${reach}.`);
  await expect(page.getByRole('listitem', { name: TITLE }).getByText('Draft', { exact: true })).toBeVisible();
  await send.click();
  await expect(confirmation).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: `Sent: going out to ${recipients} ${recipients === 1 ? 'person' : 'people'}.` })).toBeVisible();
  await expect(page.getByRole('listitem', { name: TITLE }).getByText('Active', { exact: true })).toBeVisible({ timeout: 15_000 });
});
