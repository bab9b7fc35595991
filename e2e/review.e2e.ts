import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { startSmsWebhook, startSmtpSink } from './support/providers';
import { createUser, DEMO_ADMIN, signIn, tokenFor } from './support/users';
import { wordsIn } from './support/i18n';
import { personAt } from './support/people';
import { sendHeldEmailsNow } from './support/held-deliveries';

/**
 * Nothing goes out unreviewed (issue #38), as the people on both ends see it: a draft's Send Now asks with the number
 * of people it reaches and sends only on that; under the approval policy an alert waits for a second person, who
 * approves it live from an already open console while its author cannot; and a Spanish reader's all-clear reaches
 * them in Spanish, by SMS, by e-mail and on their open alerts page.
 *
 * The e2e database is shared by every journey: the approval policy is put back to off, and the e-mail relay to what
 * it was, whatever happens here.
 */
test.describe.configure({ mode: 'serial' });

// Small towns in Nevada, far from the seeded people (Phoenix) and from every other journey's homes: only the people
// made here live near them, so the numbers each confirmation names are known.
const TONOPAH = { lat: 38.0675, lng: -117.2301 };
const ELY = { lat: 39.2474, lng: -114.8886 };
const WINNEMUCCA = { lat: 40.973, lng: -117.7357 };
/** About 110 m north of `p`: inside any circle of a few km around it. */
const nextDoor = (p: { lat: number; lng: number }) => ({ lat: p.lat + 0.001, lng: p.lng });

let adminToken: string;
let admin: { context: BrowserContext; page: Page };
let sms: Awaited<ReturnType<typeof startSmsWebhook>>;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let emailBefore: { enabled: boolean; url: string; from: string } | undefined;
const contexts: BrowserContext[] = [];

const auth = () => ({ Authorization: `Bearer ${adminToken}` });
const stamp = () => randomBytes(3).toString('hex');

async function setApprovalMode(request: APIRequestContext, mode: 'off' | 'all') {
  const res = await request.put('/api/alerts/admin/settings/approval', { headers: auth(), data: { mode } });
  expect(res.status(), await res.text()).toBe(200);
  expect((await res.json()).mode).toBe(mode);
}

test.beforeAll(async ({ browser, request }) => {
  adminToken = await tokenFor(request, DEMO_ADMIN);
  sms = await startSmsWebhook();
  smtp = await startSmtpSink();
  const settings = await request.get('/api/alerts/admin/settings', { headers: auth() });
  expect(settings.status(), await settings.text()).toBe(200);
  emailBefore = (await settings.json()).email;
  const saved = await request.put('/api/alerts/admin/settings', {
    headers: auth(),
    data: { webhook: { enabled: true, url: sms.url }, email: { enabled: true, url: smtp.url, from: 'Beacon Alerts <alerts@beacon.test>' } },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  admin = await windowOf(browser, DEMO_ADMIN);
});

test.afterAll(async ({ request }) => {
  // Whatever happened above, the next journeys find the approval policy off and the relay they had.
  if (adminToken) {
    await request.put('/api/alerts/admin/settings/approval', { headers: auth(), data: { mode: 'off' } });
    if (emailBefore) await request.put('/api/alerts/admin/settings', { headers: auth(), data: { email: emailBefore } });
  }
  for (const c of contexts) await c.close();
  await sms?.close();
  await smtp?.close();
});

/** A browser window signed in as `who`. */
async function windowOf(browser: Browser, who: { email: string; password: string }) {
  const context = await browser.newContext();
  contexts.push(context);
  const page = await context.newPage();
  await signIn(page, who, /\/dashboard$/);
  return { context, page };
}

const titlesFor = async (request: APIRequestContext, token: string) =>
  ((await (await request.get('/api/alerts/me/alerts?pageSize=50', { headers: { Authorization: `Bearer ${token}` } })).json()).items as { title: string }[]).map(
    (a) => a.title,
  );

/** "2 people", "1 person": how the console names a number of people. */
const people = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'person' : 'people'}`;
/** What a confirmation says of an alert below critical sent by e-mail alone: all of it later, in the e-mail digest (issue #40). */
const reachingByEmail = (reach: string) => `This alert will reach ${reach}, ${reach.split(' ')[0]} of them later, in their quiet hours or digest.`;

/**
 * Whom an alert like `body` reaches with its area moved to the middle of the Pacific, far from every home: the people
 * with no home location, whom every alert concerns (the delivery rule, eligibility.sql.ts). Other journeys made some,
 * so each number a confirmation names here is the people made near its area plus these.
 */
async function homeless(request: APIRequestContext, body: Record<string, unknown>) {
  const res = await request.post('/api/alerts/audience', { headers: auth(), data: { ...body, lat: -30, lng: -140, radiusKm: 5 } });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()).recipients as number;
}

const alertById = async (request: APIRequestContext, id: string) => (await request.get(`/api/alerts/${id}`, { headers: auth() })).json();

/** A person's /alerts page, open in a window of their own. */
/** The person's alerts page, open; once it speaks their language (the app switches to it when their preferences come in). */
async function alertsPageOf(browser: Browser, person: { email: string; password: string }, language?: string) {
  const { page } = await windowOf(browser, person);
  await page.goto('/alerts');
  const heading = language ? wordsIn(language)('Emergency Alerts') : 'Emergency Alerts';
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  return page;
}

test("a draft's Send Now asks with the number of people it reaches, and sends only on that confirmation", async ({ browser, request }) => {
  // A retry of this journey (CI) works half a degree south, clear of the people a failed attempt left.
  const town = { lat: TONOPAH.lat - 0.5 * test.info().retry, lng: TONOPAH.lng };
  const inside = [await personAt(request, 'review', town), await personAt(request, 'review', nextDoor(town))];
  // About 22 km north: outside the 5 km circle, so not counted.
  const outside = await personAt(request, 'review', { lat: town.lat + 0.2, lng: town.lng });
  const title = `Boil-water notice for Tonopah ${stamp()}`;
  const body = {
    title,
    message: 'A main broke overnight: boil tap water for one minute before drinking it.',
    category: 'health',
    severity: 'high',
    lat: town.lat,
    lng: town.lng,
    radiusKm: 5,
    channels: ['email'],
  };
  const reach = people(inside.length + (await homeless(request, body)));
  const created = await request.post('/api/alerts', { headers: auth(), data: { ...body, draft: true } });
  expect(created.status(), await created.text()).toBe(201);
  const draft = await created.json();
  expect(draft.status).toBe('draft');
  const watcher = await alertsPageOf(browser, inside[0]);

  const page = admin.page;
  await page.goto(`/admin/alerts/${draft.id}`);
  const card = page.getByRole('listitem', { name: title });
  await expect(card.getByText('Draft', { exact: true })).toBeVisible();

  // Send Now asks first, naming whom it reaches; cancelling sends nothing.
  const confirmation = page.getByRole('dialog', { name: `Send “${title}” now?` });
  await page.getByRole('button', { name: `Send Now: ${title}` }).click();
  await expect(confirmation).toContainText(reachingByEmail(reach));
  await expect(confirmation.getByRole('list', { name: 'Recipients per channel' })).toHaveText(
    `Email: ${reach.split(' ')[0]} (${reach.split(' ')[0]} later, in their quiet hours or digest)`,
  );
  // On a 320 px phone the confirmation fits the screen, its buttons within reach.
  const desktop = page.viewportSize()!;
  await page.setViewportSize({ width: 320, height: 640 });
  // nothing wider than the screen: the page does not scroll sideways (what is, named; a map's panes are clipped by it)
  const { overflow, wide } = await page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    return {
      overflow: document.documentElement.scrollWidth - w,
      wide: Array.from(document.querySelectorAll('body *'))
        .filter((e) => !e.closest('.leaflet-container') && e.getBoundingClientRect().right > w + 0.5)
        .slice(0, 12)
        .map((e) => `${e.tagName}.${String(e.className)} ${Math.round(e.getBoundingClientRect().right)} ${(e.textContent ?? '').slice(0, 40)}`),
    };
  });
  expect(overflow, wide.join('\n')).toBeLessThanOrEqual(0);
  for (const name of ['Cancel', `Send to ${reach}`]) {
    const button = confirmation.getByRole('button', { name, exact: true });
    await button.scrollIntoViewIfNeeded();
    const box = (await button.boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= 320, `${name}: ${JSON.stringify(box)}`).toBe(true);
  }
  await page.setViewportSize(desktop);
  await confirmation.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirmation).toHaveCount(0);
  expect((await alertById(request, draft.id)).status).toBe('draft');
  expect(await titlesFor(request, inside[0].token)).not.toContain(title);

  // Asked again, it goes out on "Send to N people", and only then.
  await page.getByRole('button', { name: `Send Now: ${title}` }).click();
  await expect(confirmation).toContainText(reachingByEmail(reach));
  await confirmation.getByRole('button', { name: `Send to ${reach}`, exact: true }).click();
  await expect(confirmation).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: `Sent: going out to ${reach}.` })).toBeVisible();
  await expect(card.getByText('Active', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(card.getByRole('button', { name: `Send Now: ${title}` })).toHaveCount(0);

  // The two made here have it (one watching, live); the one outside does not.
  await expect(watcher.getByRole('heading', { name: title })).toBeVisible({ timeout: 15_000 });
  expect(await titlesFor(request, inside[1].token)).toContain(title);
  expect(await titlesFor(request, outside.token)).not.toContain(title);
  expect((await alertById(request, draft.id)).status).toBe('active');
  await expect.poll(async () => people((await alertById(request, draft.id)).recipients)).toBe(reach);
});

test('an alert that needs approval waits, is approved live in a second approver’s open console, and goes out; its author cannot approve it', async ({
  browser,
  request,
}) => {
  // A colleague made an approver through the identity admin API, before signing in.
  const colleague = await createUser(request, 'approver');
  const colleagueToken = await tokenFor(request, colleague);
  const me = await request.get('/auth/v1/user', { headers: { Authorization: `Bearer ${colleagueToken}` } });
  expect(me.status(), await me.text()).toBe(200);
  const promoted = await request.put(`/auth/v1/admin/users/${(await me.json()).id}`, { headers: auth(), data: { app_metadata: { role: 'approver' } } });
  expect(promoted.status(), await promoted.text()).toBe(200);
  expect((await promoted.json()).app_metadata.role).toBe('approver');

  // A retry (the file runs again whole) works half a degree south, clear of the person the first run left at Ely.
  const ely = { lat: ELY.lat - 0.5 * test.info().retry, lng: ELY.lng };
  const person = await personAt(request, 'review', ely);
  const personPage = await alertsPageOf(browser, person);
  const approver = await windowOf(browser, colleague);
  // The approver's console is open on the alerts before the alert exists: all it shows next comes live.
  await approver.page.goto('/admin/alerts');
  await expect(approver.page.getByRole('heading', { name: 'Sent Alerts' })).toBeVisible();

  await setApprovalMode(request, 'all');
  try {
    const title = `Gas leak on Aultman Street, Ely ${stamp()}`;
    const reach = people(
      1 + (await homeless(request, { title, message: 'Counting only.', category: 'public_safety', severity: 'medium', channels: ['email'] })),
    );
    const page = admin.page;
    await page.goto('/admin/create-alert');
    await page.getByLabel('Alert Title').fill(title);
    await page.getByLabel('Message').fill('Gas is leaking near the post office: leave the block and do not use switches.');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('checkbox', { name: 'Email' }).check();
    await page.getByRole('checkbox', { name: 'Web Push' }).uncheck();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('radio', { name: 'Circle' }).check();
    await page.getByLabel('Search address or coordinates').fill(`${ely.lat}, ${ely.lng}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByLabel('Latitude')).toHaveValue(String(ely.lat));
    await page.getByLabel('Radius (km)', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('region', { name: 'Who this alert will reach' })).toContainText(reachingByEmail(reach));
    await page.getByRole('button', { name: `Send to ${reach}`, exact: true }).click();

    // Held: the author reads that it awaits another approver.
    const outcome = page.getByRole('status').filter({ has: page.getByRole('heading', { name: 'Awaiting approval' }) });
    await expect(outcome).toContainText(`${title} has not been sent.`);
    await outcome.getByRole('link', { name: 'View the alert' }).click();
    await expect(page).toHaveURL(/\/admin\/alerts\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    expect((await alertById(request, id)).status).toBe('pending_approval');
    const approval = page.getByRole('region', { name: 'Approval' });
    await expect(approval).toContainText('Awaiting approval');
    await expect(approval.getByRole('status')).toHaveText('Waiting for approval by another approver: you cannot approve your own alert.');
    // The author, an admin, has no Approve or Reject: only the emergency send without approval.
    await expect(page.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Reject/ })).toHaveCount(0);
    await expect(approval.getByRole('button', { name: 'Send without approval (emergency)…' })).toBeVisible();
    await expect(personPage.getByRole('heading', { name: title })).toHaveCount(0);
    expect(await titlesFor(request, person.token)).not.toContain(title);

    // The approver's open console shows it awaiting approval without a reload, and the approver approves it.
    const card = approver.page.getByRole('listitem', { name: title });
    await expect(card.getByText('Awaiting approval', { exact: true })).toBeVisible({ timeout: 15_000 });
    await card.getByRole('link', { name: title }).click();
    const panel = approver.page.getByRole('region', { name: 'Approval' });
    await expect(panel).toContainText(`sent for approval by ${DEMO_ADMIN.email}`);
    await panel.getByRole('button', { name: 'Approve…' }).click();
    await panel.getByLabel('Note for the record (optional)').fill('Checked the area and the wording with the gas company.');
    // Approving sends: it asks first with the number it reaches, as every sending path does.
    await panel.getByRole('button', { name: 'Count who it reaches' }).click();
    const confirmation = approver.page.getByRole('dialog', { name: `Approve “${title}” and send it now?` });
    await expect(confirmation).toContainText(reachingByEmail(reach));
    await confirmation.getByRole('button', { name: `Approve and send to ${reach}`, exact: true }).click();
    await expect(confirmation).toHaveCount(0);
    await expect(panel.getByRole('status')).toHaveText(`Approved: it is going out now to ${reach}.`);

    // It goes out: the person's open page gets it; the author's open page shows the decision, live.
    await expect(personPage.getByRole('heading', { name: title })).toBeVisible({ timeout: 15_000 });
    await expect(approval).toContainText(`Approved by ${colleague.email}`, { timeout: 15_000 });
    await expect(approval).toContainText('Checked the area and the wording with the gas company.');
    await expect(page.getByRole('listitem', { name: title }).getByText('Active', { exact: true })).toBeVisible();
    await expect(approval.getByRole('button', { name: 'Send without approval (emergency)…' })).toHaveCount(0);
    const approved = await alertById(request, id);
    expect(approved.status).toBe('active');
    expect(approved.approval).toMatchObject({ decision: 'approved', decidedByEmail: colleague.email });
  } finally {
    await setApprovalMode(request, 'off');
  }
});

/**
 * English words Beacon might put around a Spanish text (labels, its own all-clear, a link's words), as whole words:
 * what is left of a message once the Spanish it should say is taken out must have none of them.
 */
const ENGLISH =
  /\b(the|this|that|your|has|have|is|are|of|and|alert|alerts|all|clear|update|reminder|danger|passed|ended|view|severity|category|location|low|medium|high|critical|health|safety)\b/gi;
const englishIn = (text: string, ...spanish: string[]) =>
  spanish
    .reduce((rest, s) => rest.split(s).join(' '), text)
    .replace(/https?:\/\/\S+/g, ' ')
    .match(ENGLISH) ?? [];

test("a Spanish reader's all-clear is Spanish end to end: SMS, e-mail and their open alerts page", async ({ browser, request }) => {
  // Each live wait of her page and her messages may take its time on a loaded machine.
  test.slow();
  const run = stamp();
  const en = { title: `Chlorine leak at the Winnemucca pool ${run}`, message: 'Stay indoors and close the windows until the all-clear.' };
  const es = { title: `Fuga de cloro en la piscina de Winnemucca ${run}`, message: 'Quédese adentro y cierre las ventanas hasta el fin de la alerta.' };
  const clear = {
    en: 'The leak is sealed: you can open your windows again.',
    es: 'La fuga está sellada: ya puede volver a abrir las ventanas.',
  };
  const methods = { push: false, sms: true, email: true };
  // A retry works half a degree south, clear of the people the first run left.
  const town = { lat: WINNEMUCCA.lat - 0.5 * test.info().retry, lng: WINNEMUCCA.lng };
  const lectora = await personAt(request, 'review', town, { language: 'es', methods, phoneNumber: '+17755550123' });
  const reader = await personAt(request, 'review', nextDoor(town), { language: 'en', methods, phoneNumber: '+17755550124' });
  const smsTo = (phone: string) => sms.calls.filter((c) => c.recipients?.includes(phone));
  const mailTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email));
  // Her alerts page is open before the alert exists: what it shows next comes live.
  const page = await alertsPageOf(browser, lectora, 'es');
  const body = {
    ...en,
    translations: { es },
    category: 'health',
    severity: 'high',
    lat: town.lat,
    lng: town.lng,
    radiusKm: 5,
    channels: ['sms', 'email'],
  };
  // The all-clear tells everyone the alert reached: these two, and those with no home it reached too.
  const told = people(2 + (await homeless(request, body)));
  const created = await request.post('/api/alerts', { headers: auth(), data: body });
  expect(created.status(), await created.text()).toBe(201);
  const alert = await created.json();
  // Its e-mails wait for the e-mail digest's hour (issue #40): the hour comes now.
  await sendHeldEmailsNow([alert.id]);
  // Her card of this alert; she chose Spanish, so the app around it speaks Spanish too (issue #41).
  const herWords = wordsIn('es');
  const card = page.locator(`li[data-alert-id="${alert.id}"]`);
  /** Her page as she reads it: the alert in Spanish, the all-clear (once given) in her words, nothing of the English. */
  const expectSpanish = async (soft: boolean, when: string, cleared: boolean) => {
    const check = soft ? expect.soft : expect;
    await check(card.getByRole('heading', { name: es.title }), `${when}: the Spanish title`).toBeVisible();
    for (const spanish of cleared ? [es.message, clear.es] : [es.message]) await check(card, `${when}: the Spanish text`).toContainText(spanish);
    for (const english of cleared ? [en.title, en.message, clear.en] : [en.title, en.message])
      await check(page.getByText(english), `${when}: no English text`).toHaveCount(0);
  };

  // The alert reached her in Spanish, him in English, by SMS and by e-mail; her open page got it live.
  await expect
    .poll(() => smsTo('+17755550123').map((c) => [c.title, c.language]), { message: JSON.stringify(sms.calls.slice(-3)) })
    .toEqual([[es.title, 'es']]);
  await expect.poll(() => smsTo('+17755550124').map((c) => c.title)).toEqual([en.title]);
  await expect.poll(() => mailTo(lectora.email).map((m) => m.subject.includes(es.title))).toEqual([true]);
  await expect(card).toHaveCount(1, { timeout: 15_000 });
  await expectSpanish(true, 'The alert arriving live on her open page', false);

  // The admin gives the all-clear in the console, with its words in English and in Spanish.
  await admin.page.goto(`/admin/alerts/${alert.id}`);
  await admin.page.getByRole('button', { name: 'Give the all-clear' }).click();
  await admin.page.getByLabel('All-clear message (optional)', { exact: true }).fill(clear.en);
  await admin.page.getByLabel('All-clear message in Spanish (optional)').fill(clear.es);
  await admin.page.getByRole('button', { name: 'Review the all-clear' }).click();
  const confirmation = admin.page.getByRole('dialog', { name: `Give the all-clear for “${en.title}”?` });
  await expect(confirmation).toContainText(`The all-clear tells ${told}.`);
  const preview = confirmation.getByRole('region', { name: 'What the all-clear says, per language and channel' });
  await expect(preview.getByRole('group', { name: 'Spanish (Español) preview' })).toContainText(`Fin de la alerta: ${es.title}`);
  await expect(preview.getByRole('group', { name: 'Spanish (Español) preview' })).toContainText(clear.es);
  await confirmation.getByRole('button', { name: `Send all-clear to ${told}`, exact: true }).click();
  await expect(admin.page.getByText(`All clear given: ${told} this alert reached are being told.`)).toBeVisible();
  // the all-clear's e-mails wait for the digest's hour too
  await sendHeldEmailsNow([alert.id]);

  // Her SMS: the Spanish title and words, nothing English; his: the English.
  await expect.poll(() => smsTo('+17755550123').length).toBe(2);
  const smsEs = smsTo('+17755550123')[1];
  expect(smsEs).toMatchObject({ title: `Fin de la alerta: ${es.title}`, message: clear.es, language: 'es' });
  expect(englishIn(`${smsEs.title}\n${smsEs.message}`, es.title, clear.es)).toEqual([]);
  await expect.poll(() => smsTo('+17755550124').length).toBe(2);
  expect(smsTo('+17755550124')[1]).toMatchObject({ title: `All clear: ${en.title}`, message: clear.en });
  await expect.poll(() => mailTo(reader.email).map((m) => m.subject.includes(`All clear: ${en.title}`) && m.text.includes(clear.en))).toEqual([false, true]);

  // Her e-mail: the Spanish title and words, and no English sentence around them.
  await expect.poll(() => mailTo(lectora.email).length).toBe(2);
  const mail = mailTo(lectora.email)[1];
  expect(mail.subject).toContain(`Fin de la alerta: ${es.title}`);
  expect(mail.text).toContain(clear.es);
  for (const english of [en.title, en.message, clear.en, 'All clear', 'The danger has passed']) {
    expect(`${mail.subject}\n${mail.text}\n${mail.html}`).not.toContain(english);
  }
  const html = mail.html.replace(/<[^>]+>/g, ' ').replace(/&[a-z#0-9]+;/g, ' ');
  expect(englishIn(mail.subject, `Fin de la alerta: ${es.title}`), `English in the e-mail's subject: ${mail.subject}`).toEqual([]);
  expect(englishIn(mail.text, `Fin de la alerta: ${es.title}`, clear.es), `English in the e-mail's text:\n${mail.text}`).toEqual([]);
  expect(englishIn(html, `Fin de la alerta: ${es.title}`, clear.es), `English in the e-mail's HTML:\n${mail.html}`).toEqual([]);

  // Her open page, without a reload: the all-clear, in her words.
  await expect(card.getByText(herWords('All clear'), { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(card.getByRole('button', { name: new RegExp(herWords("I'm Safe")) })).toHaveCount(0);
  await expectSpanish(true, 'The all-clear arriving live on her open page', true);
  // And as her list is read anew.
  await page.reload();
  await expect(card.getByText(herWords('All clear'), { exact: true })).toBeVisible();
  await expectSpanish(false, 'Her alerts page, read anew', true);
});
