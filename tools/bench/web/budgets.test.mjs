// The web audit's reading of a Lighthouse result and its rules (node --test: the modules are plain
// ESM, which Jest on Node 20 does not load). The audit itself runs in the e2e stage.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { budgetFailures, formatResults, medianOf, summarize } from './budgets.mjs';

const ORIGIN = 'http://localhost:4250';

/** A Lighthouse result of `/` with what summarize reads; `overrides` per audit id. */
function lhr({ scores = {}, scriptBytes = 120_000, totalBytes = 200_000, textCompression = 1, consoleErrors = [] } = {}) {
  const categories = Object.fromEntries(
    Object.entries({ performance: 0.81, accessibility: 1, 'best-practices': 1, ...scores }).map(([id, score]) => [
      id,
      { score, auditRefs: id === 'best-practices' ? [{ id: 'errors-in-console' }] : [{ id: 'color-contrast' }] },
    ]),
  );
  return {
    requestedUrl: `${ORIGIN}/`,
    finalDisplayedUrl: `${ORIGIN}/`,
    categories,
    // Lighthouse's audit results carry their id.
    audits: withIds({
      'largest-contentful-paint': { numericValue: 2100 },
      'first-contentful-paint': { numericValue: 1500 },
      'total-blocking-time': { numericValue: 120 },
      'cumulative-layout-shift': { numericValue: 0.01 },
      'resource-summary': {
        details: {
          items: [
            { resourceType: 'total', transferSize: totalBytes },
            { resourceType: 'script', transferSize: scriptBytes },
          ],
        },
      },
      'unused-javascript': { details: { overallSavingsBytes: 30_000 } },
      'uses-text-compression': { score: textCompression, scoreDisplayMode: 'metricSavings' },
      'color-contrast': { score: scores.accessibility === undefined || scores.accessibility === 1 ? 1 : 0, scoreDisplayMode: 'binary' },
      'errors-in-console': {
        score: consoleErrors.length ? 0 : 1,
        scoreDisplayMode: 'binary',
        details: { items: consoleErrors.map((description) => ({ source: 'network', description })) },
      },
    }),
  };
}

const withIds = (audits) => Object.fromEntries(Object.entries(audits).map(([id, audit]) => [id, { id, ...audit }]));

/** Lighthouse's ResponseCompression artifact: the text responses that came without a Content-Encoding. */
const raw = (url, mimeType, resourceSize) => ({ url, mimeType, resourceSize, transferSize: resourceSize + 400 });

const screen = (name, lighthouse, artifacts) => ({ screen: name, app: 'web', ...medianOf([summarize(lighthouse, artifacts)]) });

describe('the web audit', () => {
  it('passes a first screen within its budgets, compressed, at 100/100', () => {
    const result = screen('/', lhr(), { ResponseCompression: [] });
    assert.deepEqual(budgetFailures([result]), []);
    assert.equal(result.scriptBytes, 120_000);
    assert.equal(result.lcpMs, 2100);
    assert.equal(result.performance, 81);
  });

  it('refuses more than 150 KB of JavaScript or 250 KiB in all on /, and only on /', () => {
    const heavy = lhr({ scriptBytes: 150_001, totalBytes: 256_001 });
    assert.deepEqual(budgetFailures([screen('/', heavy, {})]), [
      '/: 150 KB of JavaScript before the first screen, budget 150 KB',
      '/: 250 KiB transferred, budget 250 KiB',
    ]);
    assert.deepEqual(budgetFailures([screen('/dashboard', heavy, {})]), []);
  });

  it("names each own text file of 1 KiB or more that came without a Content-Encoding, not the API's or a tiny one", () => {
    const artifacts = {
      ResponseCompression: [
        raw(`${ORIGIN}/assets/index-abc.js`, 'text/javascript', 700_000),
        raw(`${ORIGIN}/assets/index-abc.css`, 'text/css', 70_000),
        raw(`${ORIGIN}/`, 'text/html', 1_100),
        raw(`${ORIGIN}/assets/tiny.js`, 'text/javascript', 900),
        raw('http://127.0.0.1:3950/api/profile/me', 'application/json', 5_000),
      ],
    };
    const failures = budgetFailures([screen('/profile', lhr({ textCompression: 0 }), artifacts)]);
    // The API's uncompressed JSON (another origin) fails Lighthouse's audit but is not this check's rule.
    assert.deepEqual(failures, [
      `/profile: ${ORIGIN}/assets/index-abc.js came without a Content-Encoding (700000 bytes)`,
      `/profile: ${ORIGIN}/assets/index-abc.css came without a Content-Encoding (70000 bytes)`,
      `/profile: ${ORIGIN}/ came without a Content-Encoding (1100 bytes)`,
    ]);
  });

  it('refuses accessibility or best practices below 100 and says which audit failed and what the console said', () => {
    const failures = budgetFailures([
      screen('/matches', lhr({ scores: { accessibility: 0.96, 'best-practices': 0.96 }, consoleErrors: ['WebSocket closed before the connection was established'] }), {}),
    ]);
    assert.deepEqual(failures, [
      '/matches: accessibility 96, not 100 (failing: color-contrast)',
      '/matches: best practices 96, not 100 (failing: errors-in-console; console: network: WebSocket closed before the connection was established)',
    ]);
  });

  it('takes the median of several runs and keeps a file uncompressed in any run', () => {
    const runs = [summarize(lhr({ scores: { performance: 0.5 } }), {}), summarize(lhr({ scores: { performance: 0.9 } }), {}), summarize(lhr({ scores: { performance: 0.7 } }), { ResponseCompression: [raw(`${ORIGIN}/a.js`, 'text/javascript', 2_000)] })];
    const median = medianOf(runs);
    assert.equal(median.performance, 70);
    assert.equal(median.runs, 3);
    assert.deepEqual(median.uncompressed.map((u) => u.url), [`${ORIGIN}/a.js`]);
  });

  it('prints the baseline beside each figure', () => {
    const now = screen('/', lhr(), {});
    const table = formatResults([now], { commit: '30ee70d', date: '2026-11-29', results: [{ ...now, performance: 56, scriptBytes: 753_000 }] });
    const row = table.split('\n').find((l) => l.startsWith('/ '));
    assert.match(row, /81 \(56\)/);
    assert.match(row, /120 \(753\)/);
    assert.match(table, /baseline 30ee70d/);
  });
});
