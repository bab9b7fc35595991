import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { FakeTwilio } from '../services/alerts/src/testing/fake-twilio';
import { createUser, DEMO_ADMIN, signIn, tokenFor } from './support/users';

/**
 * Every channel closes its loop (issue #39), as two operators watching the same alert see it: an alert goes out by
 * SMS and by phone call through a Twilio-compatible provider (the fake, on the TWILIO_API_URL the system was started
 * with), reads "Sent to provider" until the provider's receipts come, moves to Delivered live in both windows as they
 * do, and a SAFE reply by SMS and a key pressed in a call show in the answers at once.
 *
 * The e2e database is shared by every journey: the SMS provider is put back to the webhook whatever happens here.
 */
test.describe.configure({ mode: 'serial' });

const ACCOUNT = { accountSid: `AC${randomBytes(16).toString('hex')}`, authToken: randomBytes(16).toString('hex'), fromNumber: '+15005550006' };
// Alturas, California: far from the seeded people and from every other journey's homes.
const ALTURAS = { lat: 41.4871, lng: -120.5424 };

let adminToken: string;
let twilio: FakeTwilio;
const contexts: BrowserContext[] = [];
const auth = () => ({ Authorization: `Bearer ${adminToken}` });

test.beforeAll(async ({ request }) => {
  adminToken = await tokenFor(request, DEMO_ADMIN);
  const api = process.env.BEACON_E2E_TWILIO_URL;
  if (!api) throw new Error('global setup did not say where TWILIO_API_URL points');
  twilio = new FakeTwilio({ accountSid: ACCOUNT.accountSid, authToken: ACCOUNT.authToken });
  await twilio.start(Number(new URL(api).port));
  const saved = await request.put('/api/alerts/admin/settings', {
    headers: auth(),
    data: { sms: { provider: 'twilio' }, twilio: ACCOUNT, voice: { enabled: true } },
  });
  expect(saved.status(), await saved.text()).toBe(200);
});

test.afterAll(async ({ request }) => {
  if (adminToken) await request.put('/api/alerts/admin/settings', { headers: auth(), data: { sms: { provider: 'webhook' } } });
  for (const c of contexts) await c.close();
  await twilio?.close();
});

async function consoleWindow(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  const page = await context.newPage();
  await signIn(page, DEMO_ADMIN, /\/dashboard$/);
  return page;
}

/** A person at `home` who wants emergency alerts by SMS and by phone call at `phone`. */
async function callablePerson(request: APIRequestContext, home: { lat: number; lng: number }, phone: string) {
  const user = await createUser(request, 'loops');
  const token = await tokenFor(request, user);
  const saved = await request.put('/api/alerts/me/preferences', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      alertTypes: ['emergency'],
      severityThreshold: 'low',
      home,
      radiusMiles: 5,
      methods: { push: false, sms: true, voice: true, email: false },
      phoneNumber: phone,
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  return { ...user, phone };
}

test('an alert by SMS and phone call reads Sent to provider, then Delivered live in two consoles as receipts come, and replies count at once', async ({
  browser,
  request,
}) => {
  // A retry of this journey (CI) works half a degree south, clear of the people a failed attempt left.
  const town = { lat: ALTURAS.lat - 0.5 * test.info().retry, lng: ALTURAS.lng };
  const digits = () => String(1000 + Math.floor(Math.random() * 9000));
  const people = [
    await callablePerson(request, town, `+1530555${digits()}`),
    await callablePerson(request, { lat: town.lat + 0.001, lng: town.lng }, `+1530556${digits()}`),
  ];
  const windows = [await consoleWindow(browser), await consoleWindow(browser)];

  const title = `Wrong-way driver on US-395 ${randomBytes(2).toString('hex')}`;
  const created = await request.post('/api/alerts', {
    headers: auth(),
    data: {
      title,
      message: 'A driver is heading south in the northbound lanes near Alturas. Pull over and stay clear.',
      category: 'public_safety',
      severity: 'critical',
      lat: town.lat,
      lng: town.lng,
      radiusKm: 3,
      channels: ['sms', 'voice'],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const alert = await created.json();
  // This alert's messages and calls: the provider may also be handed another journey's late retry once it is the one
  // configured.
  const messages = () => twilio.messages.filter((m) => m.body.includes(title));
  const calls = () => twilio.calls.filter((c) => (c.twiml ?? '').includes(title));

  // The provider took one message and one call per person.
  const phones = people.map((p) => p.phone);
  await expect.poll(() => phones.every((p) => messages().some((m) => m.to === p)), { timeout: 20_000 }).toBe(true);
  await expect.poll(() => phones.every((p) => calls().some((c) => c.to === p)), { timeout: 20_000 }).toBe(true);
  const summary = async () => (await (await request.get(`/api/alerts/${alert.id}`, { headers: auth() })).json()).summary;
  await expect
    .poll(async () => {
      const s = await summary();
      return s?.sms?.pending === 0 && s?.voice?.pending === 0 ? [s.sms.sent, s.voice.sent] : null;
    })
    .toEqual([messages().length, calls().length]);

  for (const page of windows) {
    await page.goto(`/admin/alerts/${alert.id}`);
    await expect(page.locator('.delivery-icon.delivery-sent-to-provider').first()).toBeVisible();
    await expect(page.getByTestId('counts-sms').first().locator('[data-count="sent"]')).toContainText(String(messages().length));
    await expect(page.getByTestId('counts-sms').first().locator('[data-count="delivered"]')).toContainText('0');
  }

  // The receipts: every message delivered, every call answered. Both consoles move without a reload.
  for (const m of messages()) expect((await twilio.messageStatus(m, 'delivered')).status).toBe(200);
  for (const c of calls()) expect((await twilio.callStatus(c, 'completed')).status).toBe(200);
  for (const page of windows) {
    await expect(page.getByTestId('counts-sms').first().locator('[data-count="delivered"]')).toContainText(String(messages().length), {
      timeout: 15_000,
    });
    await expect(page.getByTestId('counts-voice').first().locator('[data-count="delivered"]')).toContainText(String(calls().length));
    await expect(page.locator('.delivery-icon.delivery-all-delivered').first()).toBeVisible();
  }

  // A SAFE reply by SMS, and key 2 pressed in the other person's call.
  const inbound = `${process.env.BEACON_E2E_URL}/api/alerts/providers/twilio/sms/inbound`;
  const answer = await twilio.inboundSms(inbound, people[0].phone, ACCOUNT.fromNumber, 'safe');
  expect(answer.status).toBe(200);
  expect(answer.text).toContain('You are marked safe');
  const call = calls().find((c) => c.to === people[1].phone)!;
  const pressed = await twilio.pressKey(call, '2');
  expect(pressed.status).toBe(200);
  expect(pressed.text).toContain('Your request for help was sent');
  for (const page of windows) {
    const answers = page.getByRole('list', { name: 'Answers to this alert' });
    await expect(answers).toContainText(/I.m Safe:\s*1/, { timeout: 15_000 });
    await expect(answers).toContainText(/Need help:\s*1/);
  }
});
