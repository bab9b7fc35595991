import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { seriousA11yViolations } from './support/axe';
import { wordsIn } from './support/i18n';
import { createUser, DEMO_ADMIN, signIn, tokenFor } from './support/users';

/**
 * The warning reaches the person (issue #40). A Spanish reader with two tabs open, one on /dashboard/community and
 * one on /dashboard/maps, on a phone (390 px) and on a desktop (1440 px): an admin's alert shows as a banner in both
 * within 2 s of its send, its raise to Critical takes both screens over and says what changed, and its all-clear turns
 * the card calm and the unread count drops. With voice on, each version is read aloud once across the two tabs, in
 * Spanish; the person chose Spanish, so every word of the app around the alert is Spanish too (issue #41). Headless
 * Chromium has no voice engine: speechSynthesis is a stand-in that records what it is asked to say.
 * axe finds no serious issue with the banner or the takeover on screen.
 */
test.describe.configure({ mode: 'serial' });

/** The app's words as the Spanish reader sees them. */
const words = wordsIn('es');
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const CRITICAL = words.id('alerts.severity.critical');

// Small Wyoming towns, far from the seeded people and every other journey's homes.
const TOWNS = { phone: { lat: 42.833, lng: -108.7307 }, desktop: { lat: 41.7911, lng: -107.2387 } };
/** The issue's promise: the banner within 2 s of the admin's send. */
const WITHIN_MS = 2_000;

let adminToken: string;
const auth = () => ({ Authorization: `Bearer ${adminToken}` });

test.beforeAll(async ({ request }) => {
  adminToken = await tokenFor(request, DEMO_ADMIN);
});

/**
 * A person at `home` who wants emergency alerts in Spanish, by SMS (so each alert is in their feed) and read aloud.
 * Alerts for everyone that earlier journeys left in effect are in their feed too: `unread` reads their count.
 */
async function spanishReaderAt(request: APIRequestContext, home: { lat: number; lng: number }) {
  const user = await createUser(request, 'warnings');
  const token = await tokenFor(request, user);
  const saved = await request.put('/api/alerts/me/preferences', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      alertTypes: ['emergency'],
      severityThreshold: 'low',
      home,
      radiusMiles: 5,
      language: 'es',
      phoneNumber: `+1307555${String(1000 + Math.floor(Math.random() * 9000))}`,
      methods: { push: false, sms: true, email: false, voice: true },
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const unread = async () => {
    const res = await request.get('/api/alerts/me/alerts/unread-count', { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).count as number;
  };
  return { ...user, unread };
}

/** The entry's name with `n` unread: "Alertas (2 sin leer)", or just "Alertas" with none. */
const withCount = (name: string, n: number) => (n === 0 ? name : `${name}${words.id('warnings.unread.spoken', { n })}`);

/**
 * The admin's sending call as the console makes it: the audience preview first, then the call with its token (the
 * confirmation). Resolves with the sending call's answer; `sentAt` is when that call left.
 */
async function confirmedSend(request: APIRequestContext, path: string, body: Record<string, unknown>) {
  const preview = await request.post(`${path}/audience`, { headers: auth(), data: body });
  expect(preview.ok(), await preview.text()).toBe(true);
  const { token } = await preview.json();
  const sentAt = Date.now();
  const sent = request.post(path, { headers: { ...auth(), 'Audience-Token': token }, data: body }).then(async (res) => {
    expect(res.ok(), await res.text()).toBe(true);
    return res.json();
  });
  return { sentAt, sent };
}

/** What the stand-in speechSynthesis was asked to say, in every tab of the window (reloads included). */
interface Spoken {
  tab: string;
  text: string;
  lang: string;
  voice: string | null;
}

/**
 * A browser window of the person's, with the stand-in voice engine: it records each utterance through a binding
 * (so a reload loses none), "speaks" until cancelled, and offers an English and a Spanish voice.
 */
async function windowWithVoice(browser: Browser, viewport: { width: number; height: number }) {
  // bypassCSP: axe-core is injected as an inline script, which the app's policy (script-src 'self') refuses
  const context = await browser.newContext({ viewport, bypassCSP: true });
  const spoken: Spoken[] = [];
  await context.exposeBinding('beaconSpoke', ({ page }, call: Omit<Spoken, 'tab'>) => {
    spoken.push({ tab: new URL(page.url()).pathname, ...call });
  });
  await context.addInitScript(() => {
    type Utterance = { text: string; lang: string; voice: { name: string } | null; onstart?: () => void; onend?: () => void };
    const voices = [
      { lang: 'en-US', name: 'Stand-in English', default: true, localService: true, voiceURI: 'stand-in-en' },
      { lang: 'es-US', name: 'Stand-in Spanish', default: false, localService: true, voiceURI: 'stand-in-es' },
    ];
    let speaking: Utterance[] = [];
    class StandInUtterance {
      lang = '';
      voice: { name: string } | null = null;
      onstart?: () => void;
      onend?: () => void;
      constructor(public text: string) {}
    }
    const synth = {
      get speaking() {
        return speaking.length > 0;
      },
      pending: false,
      getVoices: () => voices,
      speak(u: Utterance) {
        (window as unknown as { beaconSpoke: (c: unknown) => void }).beaconSpoke({ text: u.text, lang: u.lang, voice: u.voice?.name ?? null });
        speaking.push(u);
        setTimeout(() => u.onstart?.(), 0);
      },
      cancel() {
        const ended = speaking;
        speaking = [];
        for (const u of ended) setTimeout(() => u.onend?.(), 0);
      },
      pause() {},
      resume() {},
      addEventListener() {},
      removeEventListener() {},
    };
    Object.defineProperty(window, 'speechSynthesis', { configurable: true, get: () => synth });
    Object.defineProperty(window, 'SpeechSynthesisUtterance', { configurable: true, writable: true, value: StandInUtterance });
  });
  return { context, spoken };
}

/** Opens `path` and resolves once the app's live connection is up and its warning layer has read the unread count. */
async function openLive(page: Page, path: string) {
  const connected = new Promise<void>((resolve) =>
    page.on('websocket', (ws) => {
      if (ws.url().includes('/socket.io')) ws.on('framereceived', (f) => String(f.payload).startsWith('40') && resolve());
    }),
  );
  const counted = page.waitForResponse((r) => r.url().includes('/api/alerts/me/alerts/unread-count') && r.ok());
  await page.goto(path);
  await Promise.all([connected, counted]);
}

/**
 * The "Alerts" entry that carries the count: the phone's bottom bar; on a desktop, the dashboard sidebar's "My Alerts"
 * or, on the pages with the header (/alerts), the header's "Alerts".
 */
const alertsEntry = (page: Page, phone: boolean): Locator =>
  phone
    ? page.getByRole('navigation', { name: words('Sections'), exact: true }).getByRole('link', { name: new RegExp(`^${escaped(words('Alerts'))}`) })
    : new URL(page.url()).pathname.startsWith('/dashboard')
      ? page.getByRole('navigation', { name: words('Dashboard sections') }).getByRole('link', { name: new RegExp(`^${escaped(words('My Alerts'))}`) })
      : page.getByRole('navigation', { name: words('Main'), exact: true }).getByRole('link', { name: new RegExp(`^${escaped(words('Alerts'))}`) });
/** Its name: "Alerts" on a phone's bar and the header, "My Alerts" in the dashboard's sidebar, in Spanish. */
const entryName = (page: Page, phone: boolean) => words(phone || !new URL(page.url()).pathname.startsWith('/dashboard') ? 'Alerts' : 'My Alerts');

/** Whether the page's focus is in its takeover (each tab's own focus, whichever tab the window shows). */
const focusInTakeover = (page: Page) => page.evaluate(() => !!document.activeElement?.closest('[role="alertdialog"]'));

async function expectNoSeriousIssues(page: Page, what: string) {
  const violations = await seriousA11yViolations(page);
  expect(violations, `${what}:\n${violations.join('\n')}`).toEqual([]);
}

for (const [name, viewport] of [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1440, height: 900 }],
] as const) {
  test(`${name} (${viewport.width} px): a banner within 2 s on community and maps, a critical takeover that says what changed, a calm all-clear, one voice per version`, async ({
    browser,
    request,
  }) => {
    const phone = name === 'phone';
    const town = TOWNS[name];
    const person = await spanishReaderAt(request, town);
    const before = await person.unread();
    const { context, spoken } = await windowWithVoice(browser, viewport);
    try {
      const community = await context.newPage();
      await signIn(community, person);
      await openLive(community, '/dashboard/community');
      await expect(community.getByRole('heading', { name: words('Community'), level: 1 })).toBeVisible();
      const maps = await context.newPage();
      await openLive(maps, '/dashboard/maps');
      const tabs = [community, maps];

      // ---- a new alert: a banner at the top of both tabs within 2 s of the send, in the reader's language
      const stamp = randomBytes(2).toString('hex');
      const es = { title: `Fuga de gas en la calle Main ${stamp}`, message: 'Aléjese de la zona y no use llamas.' };
      const body = {
        title: `Gas leak on Main St ${stamp}`,
        message: 'Stay away from the area and do not use open flames.',
        translations: { es },
        category: 'public_safety',
        severity: 'high',
        lat: town.lat,
        lng: town.lng,
        radiusKm: 3,
        channels: ['sms'],
      };
      const first = await confirmedSend(request, '/api/alerts', body);
      const banner = (page: Page) => page.getByRole('alert').filter({ hasText: es.title });
      await Promise.all(tabs.map((page) => expect(banner(page)).toBeVisible({ timeout: Math.max(0, first.sentAt + WITHIN_MS - Date.now()) })));
      const alert = await first.sent;
      for (const page of tabs) {
        await expect(banner(page)).toContainText(
          words.id('warnings.banner.kindAndSeverity', { kind: words('New alert'), severity: words.id('alerts.severity.high'), strong: (c) => c.join('') }),
        );
        await expect(banner(page)).toBeInViewport();
      }
      await expect(alertsEntry(maps, phone)).toHaveAccessibleName(withCount(entryName(maps, phone), before + 1));
      await expectNoSeriousIssues(community, 'community with the banner');
      // one tab reads it aloud, in Spanish with the Spanish voice, and shows that it does, with Stop
      await expect.poll(() => spoken.length).toBe(1);
      expect(spoken[0]).toMatchObject({ lang: 'es-US', voice: 'Stand-in Spanish', text: expect.stringContaining(es.title) });
      const speakingTab = tabs.find((p) => new URL(p.url()).pathname === spoken[0].tab)!;
      const stop = speakingTab.getByRole('button', { name: words('Stop reading the alert aloud') });
      await expect(stop).toBeVisible();
      await stop.click();
      await expect(stop).toHaveCount(0);

      // ---- the update raises it to Critical: both tabs are taken over, saying what changed
      const es2 = { title: es.title, message: 'Evacúe ahora: la fuga se extiende.' };
      const second = await confirmedSend(request, `/api/alerts/${alert.id}/update`, {
        severity: 'critical',
        message: 'Evacuate now: the leak is spreading.',
        translations: { es: es2 },
        version: 1,
      });
      const takeover = (page: Page) => page.getByRole('alertdialog', { name: `${words('Critical alert')} ${es.title}` });
      const raised = words.id('warnings.change.severityRaised', { severity: CRITICAL });
      await Promise.all(tabs.map((page) => expect(takeover(page)).toBeVisible({ timeout: Math.max(0, second.sentAt + WITHIN_MS - Date.now()) })));
      await second.sent;
      for (const page of tabs) {
        await expect(takeover(page)).toContainText(words('{updated}: {what}', { updated: words('Updated just now'), what: raised }));
        await expect(takeover(page)).toContainText(es2.message);
        await expect(takeover(page).getByRole('link', { name: words.id('warnings.takeover.call911') })).toHaveAttribute('href', 'tel:911');
        expect(await focusInTakeover(page)).toBe(true);
      }
      await expectNoSeriousIssues(maps, 'maps with the takeover');
      // Escape does not put it away; acknowledged in one tab, it leaves the other too
      await community.keyboard.press('Escape');
      await expect(takeover(community)).toBeVisible();
      await takeover(community)
        .getByRole('button', { name: words('I understand') })
        .click();
      for (const page of tabs) {
        await expect(takeover(page)).toHaveCount(0);
        await expect(banner(page)).toHaveCount(0);
      }

      // ---- the card says what changed; the all-clear turns it calm and the unread count drops
      await openLive(community, '/alerts');
      const card = community.getByRole('listitem').filter({ has: community.getByRole('heading', { name: es.title }) });
      const oneMinuteAgo = words('Updated {age}', { age: words('{n}m ago', { n: 1 }) });
      const changed = (updated: string) => words('{updated}: {what}', { updated, what: raised });
      await expect(card).toContainText(new RegExp(`${escaped(changed(words('Updated just now')))}|${escaped(changed(oneMinuteAgo))}`));
      await expect(card.getByText(CRITICAL, { exact: true })).toBeVisible();
      await expect(alertsEntry(maps, phone)).toHaveAccessibleName(withCount(entryName(maps, phone), before + 1));
      const third = await confirmedSend(request, `/api/alerts/${alert.id}/all-clear`, {
        message: 'The leak is sealed.',
        translations: { es: { message: 'La fuga está sellada.' } },
      });
      await third.sent;
      await expect(card.getByText(words('All clear'), { exact: true })).toBeVisible();
      await expect(card).toContainText('La fuga está sellada.');
      await expect(card.getByText(CRITICAL, { exact: true })).toHaveCount(0);
      await expect(card.getByRole('button', { name: new RegExp(escaped(words("I'm Safe"))) })).toHaveCount(0);
      const dismiss = words('Dismiss: {title}', { title: es.title });
      await expect(card.getByRole('button', { name: dismiss })).toBeVisible();
      // both tabs tell it calmly (a status, in green), with the admin's words in Spanish
      for (const page of tabs) {
        const calm = page.getByRole('status', { name: `${words('All clear')} ${es.title}` });
        await expect(calm).toContainText('La fuga está sellada.');
        await expect(calm).toHaveClass(/warning-calm/);
      }
      await expect(alertsEntry(maps, phone)).toHaveAccessibleName(withCount(entryName(maps, phone), before));
      await expect(alertsEntry(community, phone)).toHaveAccessibleName(withCount(entryName(community, phone), before));

      // ---- the voice: exactly one speech per version across both tabs, each in the alert's language
      await expect.poll(() => spoken.length, { message: JSON.stringify(spoken, null, 1) }).toBe(3);
      expect(spoken.map((s) => s.lang)).toEqual(['es-US', 'es-US', 'es-US']);
      expect(spoken[1].text).toMatch(/^Actualización: /);
      expect(spoken[2].text).toMatch(/^Fin de la alerta: /);

      // dismissed, the ended alert leaves the feed
      await card.getByRole('button', { name: dismiss }).click();
      await expect(community.getByRole('heading', { name: es.title })).toHaveCount(0);
      // and by now, long after both tabs showed the all-clear, no tab has said anything twice
      expect(spoken, JSON.stringify(spoken, null, 1)).toHaveLength(3);
    } finally {
      await context.close();
    }
  });
}
