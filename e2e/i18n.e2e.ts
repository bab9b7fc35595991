import { expect, test, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { wordsIn } from './support/i18n';
import { confirmedSend, personAt } from './support/people';
import { SIGNED_IN, SIGNED_OUT } from './support/routes';
import { createUser, DEMO_ADMIN, signIn, tokenFor } from './support/users';

/**
 * Beacon in the reader's language (issue #41). A person switches the app to Spanish in the shell: every page is
 * Spanish at once, with no reload, and the choice is saved as the language their alerts come in; an alert with a
 * Spanish translation, its update and its all-clear arrive live in Spanish, and one without arrives in English,
 * marked as English for screen readers. Then the pseudo-locale (every message longer and accented) on a 390 px phone:
 * no page scrolls sideways, no button is clipped, and no button, label or heading is left in plain English.
 */
const es = wordsIn('es');
// A small Nevada town no other journey sends to.
const TOWN = { lat: 39.5963, lng: -116.3715 };

let adminToken: string;
test.beforeAll(async ({ request }) => {
  adminToken = await tokenFor(request, DEMO_ADMIN);
});

/**
 * Resolves once the gateway has accepted the page's live connection (a Socket.IO CONNECT answer): the sign-in page
 * has none, so this is the signed-in person's.
 */
function signedInConnection(page: Page) {
  return new Promise<void>((resolve) =>
    page.on('websocket', (ws) => {
      if (ws.url().includes('/socket.io')) ws.on('framereceived', (f) => String(f.payload).startsWith('40') && resolve());
    }),
  );
}

test('switching to Spanish turns the whole app and the live alerts Spanish, without a reload', async ({ page, request }) => {
  test.setTimeout(120_000);
  const person = await personAt(request, 'i18n', TOWN, { methods: { push: false, sms: true, email: false }, phoneNumber: '+17755550141' });
  const live = signedInConnection(page);
  await signIn(page, person);
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

  await page.getByRole('combobox', { name: 'Language' }).first().selectOption('es');
  await expect(page.locator('html')).toHaveAttribute('lang', /^es/);
  await expect(page.getByRole('combobox', { name: es('Language') }).first()).toHaveValue('es');
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(/^Welcome/);
  // saved as their alerts' language
  await expect
    .poll(async () => (await (await request.get('/api/alerts/me/preferences', { headers: { Authorization: `Bearer ${person.token}` } })).json()).language)
    .toBe('es');

  // its name ends with the unread count when alerts other journeys left in effect reach this person too
  await page
    .getByRole('link', { name: new RegExp(`^${es('My Alerts')}`) })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(es('Emergency Alerts'));
  await live;
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

  // ---- an alert with a Spanish translation: new, update, all-clear, each live and in Spanish
  const stamp = randomBytes(2).toString('hex');
  const spanish = { title: `Conductor en sentido contrario en la I-80 ${stamp}`, message: 'Salga de la autopista en la próxima salida.' };
  const first = await confirmedSend(request, adminToken, '/api/alerts', {
    title: `Wrong-way driver on I-80 ${stamp}`,
    message: 'Leave the freeway at the next exit.',
    translations: { es: spanish },
    category: 'public_safety',
    severity: 'high',
    lat: TOWN.lat,
    lng: TOWN.lng,
    radiusKm: 3,
    channels: ['sms'],
  });
  const alert = await first.sent;
  const card = page.locator(`li[data-alert-id="${alert.id}"]`);
  await expect(card.locator('[lang="es"]').filter({ hasText: spanish.title }).first()).toBeVisible();
  await expect(card.getByText(es.id('alerts.severity.high'), { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: new RegExp(es("I'm Safe")) })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: spanish.title })).toContainText(es('New alert'));

  const update = await confirmedSend(request, adminToken, `/api/alerts/${alert.id}/update`, {
    message: 'The driver has been stopped; expect delays.',
    translations: { es: { title: spanish.title, message: 'El conductor fue detenido; espere demoras.' } },
    version: 1,
  });
  await update.sent;
  await expect(card.locator('[lang="es"]').filter({ hasText: 'El conductor fue detenido; espere demoras.' })).toBeVisible();

  const clear = await confirmedSend(request, adminToken, `/api/alerts/${alert.id}/all-clear`, {
    message: 'The freeway is open.',
    translations: { es: { message: 'La autopista está abierta.' } },
  });
  await clear.sent;
  await expect(card.locator('[lang="es"]').filter({ hasText: 'La autopista está abierta.' })).toBeVisible();
  await expect(card.getByText(es('All clear'), { exact: true })).toBeVisible();

  // ---- one without Spanish text: the English, marked as English
  const english = { title: `Road closed at Battle Mountain ${stamp}`, message: 'Use the frontage road.' };
  const second = await confirmedSend(request, adminToken, '/api/alerts', {
    ...english,
    category: 'public_safety',
    severity: 'medium',
    lat: TOWN.lat,
    lng: TOWN.lng,
    radiusKm: 3,
    channels: ['sms'],
  });
  const other = await second.sent;
  const englishCard = page.locator(`li[data-alert-id="${other.id}"]`);
  await expect(englishCard.locator('[lang="en"]').filter({ hasText: english.title }).first()).toBeVisible();
  await expect(englishCard.getByText(es.id('alerts.severity.medium'), { exact: true })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
});

// every route, as the overflow sweep opens them, but for the one alert's page
const SIGNED_IN_ONLY = SIGNED_IN.filter((path) => !path.includes(':') && !SIGNED_OUT.includes(path));

/** What a page at 390 px gets wrong in long, accented words: sideways scrolling, clipped buttons, English left over. */
async function problemsOn(page: Page, path: string, userName = ''): Promise<string[]> {
  await page.goto(`${path}${path.includes('?') ? '&' : '?'}lang=en-XA`);
  await expect(page.locator('h1').first()).toBeVisible();
  await expect(page.locator('.spinner')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready);
  return page.evaluate(
    ([where, userName]) => {
      const problems: string[] = [];
      const root = document.documentElement;
      if (root.scrollWidth > root.clientWidth) problems.push(`${where}: ${root.scrollWidth - root.clientWidth} px wider than the phone`);
      const visible = (el: Element) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
      };
      // (the map's markers and clusters lie wherever the map is panned: not buttons of the page's layout)
      for (const el of Array.from(document.querySelectorAll<HTMLElement>('button, a.btn, [role="button"]')).filter(visible)) {
        if (el.closest('.leaflet-container')) continue;
        const name = (el.innerText || el.getAttribute('aria-label') || '').trim().slice(0, 40);
        const style = getComputedStyle(el);
        const clips = style.overflow !== 'visible' || style.textOverflow === 'ellipsis';
        if (clips && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)) problems.push(`${where}: button "${name}" is clipped`);
        if (el.getBoundingClientRect().right > root.clientWidth + 0.5 && style.position !== 'fixed')
          problems.push(`${where}: button "${name}" runs off the screen`);
      }
      // The pseudo-locale's words are bracketed and accented: a button, label, page heading or column heading with plain
      // English letters only holds text no catalogue gave it. Alert text carries its own lang; the person's own name and
      // what people and staff wrote (posts, products: the h2 and h3 of cards) are theirs, not Beacon's words.
      for (const el of Array.from(document.querySelectorAll<HTMLElement>('button, label, h1, th, legend')).filter(visible)) {
        if (el.closest('[lang]:not(html), .leaflet-container')) continue;
        const text = el.innerText.replace(userName, '').trim();
        if (/[A-Za-z]{3}/.test(text) && !/[^\x00-\x7F]/.test(text)) problems.push(`${where}: "${text.slice(0, 60)}" is not from a catalogue`);
      }
      return problems;
    },
    [path, userName] as const,
  );
}

test.describe('the pseudo-locale on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test.describe.configure({ timeout: 240_000 });

  test('no page scrolls sideways, clips a button or keeps English words, signed out and signed in', async ({ page, request }) => {
    const problems: string[] = [];
    for (const path of SIGNED_OUT) problems.push(...(await problemsOn(page, path)));
    const person = await createUser(request, 'pseudo');
    await signIn(page, person);
    for (const path of SIGNED_IN_ONLY) problems.push(...(await problemsOn(page, path, person.email.split('@')[0])));
    expect(problems).toEqual([]);
  });
});
