import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** WCAG 2.1 A and AA, as axe-core tags them (issue 25). */
export const WCAG_21_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The impacts that fail the sweep; minor and moderate findings are left to review. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

/**
 * Runs axe-core on what the page shows now and returns one line per serious or critical
 * violation: where (`screen`), the rule id, its impact, the elements (CSS targets) and axe's help
 * text with its link — enough to find and fix it without re-running the sweep.
 */
export async function seriousViolations(page: Page, screen: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA_TAGS).analyze();
  return results.violations
    .filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => {
      const targets = violation.nodes.map((node) => node.target.join(' ')).join(' | ');
      return `${screen}: ${violation.id} (${violation.impact}) on ${targets} — ${violation.help} (${violation.helpUrl})`;
    });
}
