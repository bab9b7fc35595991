import { chromium, expect, test, type Browser } from '@playwright/test';
import { createServer } from 'node:net';
import config from './playwright.config';

/**
 * Lighthouse (its Node API, the lighthouse package) on the public pages of the running system, as a phone sees them
 * (its mobile form factor and screen): accessibility and best practices each at least 0.95 (issue #40). It drives the
 * same Debian Chromium with the same flags as every journey, through the remote-debugging port of a browser this file
 * launches; nothing is downloaded.
 */
const PUBLIC_PAGES = ['/', '/faq', '/premium', '/login', '/signup', '/forgot-password', '/map', '/terms', '/privacy', '/contact'];
const CATEGORIES = ['accessibility', 'best-practices'] as const;
const MINIMUM = 0.95;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let browser: Browser;
let port: number;

test.beforeAll(async () => {
  const launch = config.use?.launchOptions ?? {};
  port = await freePort();
  browser = await chromium.launch({ ...launch, args: [...(launch.args ?? []), `--remote-debugging-port=${port}`] });
});

test.afterAll(async () => {
  await browser?.close();
});

// a Lighthouse run loads the page, then audits it: well over Playwright's default 30 s on a slow machine
test.describe.configure({ timeout: 180_000 });

for (const path of PUBLIC_PAGES) {
  test(`Lighthouse on ${path} (mobile): accessibility and best practices at least ${MINIMUM}`, async () => {
    // lighthouse ships only ES modules
    const { default: lighthouse } = await import('lighthouse');
    const url = new URL(path, process.env.BEACON_E2E_URL).toString();
    const result = await lighthouse(url, {
      port,
      logLevel: 'error',
      output: 'json',
      onlyCategories: [...CATEGORIES],
      formFactor: 'mobile',
      screenEmulation: { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false },
    });
    expect(result, `Lighthouse gave no result for ${url}`).toBeTruthy();
    const { lhr } = result!;
    expect(lhr.runtimeError, JSON.stringify(lhr.runtimeError)).toBeUndefined();
    const scores: Record<string, number | null> = {};
    const failing: string[] = [];
    for (const id of CATEGORIES) {
      const category = lhr.categories[id];
      scores[id] = category.score;
      for (const ref of category.auditRefs) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit.score !== null && audit.score < 1) failing.push(`${id}: ${ref.id} (${audit.title}) ${audit.displayValue ?? ''}`.trim());
      }
    }
    // the scores and what fell short, in the report even when the page passes
    test
      .info()
      .annotations.push({ type: 'lighthouse', description: `${JSON.stringify(scores)}${failing.length ? `; short of 1: ${failing.join('; ')}` : ''}` });
    for (const id of CATEGORIES) expect(scores[id] ?? 0, `${path} ${id} ${scores[id]}:\n${failing.join('\n')}`).toBeGreaterThanOrEqual(MINIMUM);
  });
}
