import { expect, type Page } from '@playwright/test';

/** Runs axe-core (WCAG 2 A and AA rules) in the page and fails on serious or critical violations. */
export async function expectNoSeriousA11yViolations(page: Page) {
  const violations = await seriousA11yViolations(page);
  expect(violations, violations.join('\n')).toEqual([]);
}

/** The serious and critical WCAG 2 A/AA violations axe-core finds in the page, one line each. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id} (${v.impact}): ${v.help} — ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(' '))
            .join(', ')}`,
      );
  });
}
