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
  await flattenGradients(page);
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA_TAGS).analyze();
  if (process.env.E2E_AXE_REVIEW) {
    // What axe could not decide (text over translucent glass, over an image): for a person to look at.
    for (const item of results.incomplete.filter((entry) => FAILING_IMPACTS.has(entry.impact ?? ''))) {
      for (const node of item.nodes) console.log(`[axe review] ${screen}: ${item.id} on ${node.target.join(' ')} — ${node.any[0]?.message ?? ''}`);
    }
  }
  return results.violations
    .filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => {
      const targets = violation.nodes.map((node) => node.target.join(' ')).join(' | ');
      return `${screen}: ${violation.id} (${violation.impact}) on ${targets} — ${violation.help} (${violation.helpUrl})`;
    });
}

/**
 * axe-core cannot judge text contrast over a gradient (the whole Glass UI: the page's background,
 * every card) and reports it as "needs review" instead of pass or fail. So before a check, each
 * gradient background becomes one solid colour: of its colour stops (each laid over the element's
 * own background colour), the one with the least contrast to the element's text — the worst spot.
 * Text that passes there passes everywhere on that gradient.
 */
async function flattenGradients(page: Page): Promise<void> {
  await page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const parse = (value: string): Rgba | null => {
      const match = /rgba?\(([^)]+)\)/.exec(value);
      if (!match) return null;
      const [r, g, b, a = 1] = match[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return [r, g, b, a];
    };
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const a = top[3] + bottom[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const mix = (i: number) => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a;
      return [mix(0), mix(1), mix(2), a];
    };
    const luminance = ([r, g, b]: Rgba) => {
      const channel = (v: number) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const contrast = (x: Rgba, y: Rgba) => {
      const [light, dark] = [luminance(x), luminance(y)].sort((p, q) => q - p);
      return (light + 0.05) / (dark + 0.05);
    };
    for (const element of [document.documentElement, ...Array.from(document.querySelectorAll<HTMLElement>('body, body *'))]) {
      const style = getComputedStyle(element);
      if (!style.backgroundImage.includes('gradient') || style.backgroundImage.includes('url(')) continue;
      const base = parse(style.backgroundColor) ?? [0, 0, 0, 0];
      const text = parse(style.color) ?? [0, 0, 0, 1];
      const stops = (style.backgroundImage.match(/rgba?\([^)]+\)/g) ?? [])
        .map(parse)
        .filter((stop): stop is Rgba => stop !== null && stop[3] > 0)
        .map((stop) => over(stop, base));
      if (stops.length === 0) continue;
      const worst = stops.reduce((a, b) => (contrast(a, text) <= contrast(b, text) ? a : b));
      element.style.setProperty('background-image', 'none', 'important');
      element.style.setProperty('background-color', `rgba(${worst.join(', ')})`, 'important');
    }
  });
}
