import type { Page } from '@playwright/test';

/** One layout shift as the browser reported it, with the elements that moved (tag, id, classes). */
export interface Shift {
  value: number;
  at: number;
  sources: string[];
}

export interface LayoutShiftReport {
  /** The sum of every layout shift without recent input since the document started: the page's CLS, counted strictly. */
  cls: number;
  shifts: Shift[];
}

/** How long a page must show no new layout shift, once the network is idle, before its CLS is read. */
const QUIET_MS = 2_000;

/**
 * Loads `path` in the page and returns its cumulative layout shift once it has settled: the network idle (no request
 * for 500 ms) and then no new layout shift for QUIET_MS. The shifts are read with a PerformanceObserver on
 * `layout-shift` entries (buffered, so the ones before it was made count too), those right after an input left out, as
 * Core Web Vitals count them. Every shift is summed, not only the worst session window: stricter than the CLS metric.
 */
export async function layoutShiftOf(page: Page, path: string): Promise<LayoutShiftReport> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  let report = await page.evaluate(shiftsInPage);
  for (;;) {
    await page.waitForTimeout(QUIET_MS);
    const now = await page.evaluate(shiftsInPage);
    if (now.shifts.length === report.shifts.length) return now;
    report = now;
  }
}

/**
 * Run in the page: every layout shift the document has had, read with a buffered PerformanceObserver (its buffered
 * entries arrive in a task after observe(), hence the wait), those right after an input left out.
 */
function shiftsInPage(): Promise<LayoutShiftReport> {
  interface LayoutShiftEntry extends PerformanceEntry {
    value: number;
    hadRecentInput: boolean;
    sources?: { node: Node | null }[];
  }
  const describe = (node: Node | null) => {
    if (!(node instanceof Element)) return node ? node.nodeName : '(removed)';
    return node.tagName.toLowerCase() + (node.id ? `#${node.id}` : '') + Array.from(node.classList, (c) => `.${c}`).join('');
  };
  return new Promise((resolve) => {
    const entries: LayoutShiftEntry[] = [];
    const observer = new PerformanceObserver((list) => entries.push(...(list.getEntries() as LayoutShiftEntry[])));
    observer.observe({ type: 'layout-shift', buffered: true });
    setTimeout(() => {
      entries.push(...(observer.takeRecords() as LayoutShiftEntry[]));
      observer.disconnect();
      const shifts = entries
        .filter((e) => !e.hadRecentInput)
        .map((e) => ({ value: e.value, at: Math.round(e.startTime), sources: (e.sources ?? []).map((s) => describe(s.node)) }));
      resolve({ cls: shifts.reduce((sum, s) => sum + s.value, 0), shifts });
    }, 100);
  });
}

/** The report in a line per shift, biggest first, for a failing assertion's message. */
export function describeShifts(report: LayoutShiftReport): string {
  return [...report.shifts]
    .sort((a, b) => b.value - a.value)
    .map((s) => `${s.value.toFixed(4)} at ${s.at} ms: ${s.sources.join(', ') || '(no source)'}`)
    .join('\n');
}
