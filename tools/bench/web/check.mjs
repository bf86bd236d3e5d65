// The web audit's step of `npm test` (apps/e2e/run.mjs, after the browser journeys): against the
// platform the e2e stage already runs (processes or containers), it makes the audit's accounts,
// runs Lighthouse once over every screen, prints the issue's table beside the baseline, and fails
// on the budgets that do not move with the machine's load (tools/bench/web/budgets.mjs). The
// performance scores and the timings are printed, never enforced here: `npm run bench:web` is the
// place to judge them.
import { readFileSync } from 'node:fs';
import { prepareAuditAccounts } from './accounts.mjs';
import { auditScreens } from './audit.mjs';
import { budgetFailures, formatResults } from './budgets.mjs';

const say = (line) => process.stdout.write(`[web audit] ${line}\n`);

function baseline() {
  try {
    return JSON.parse(readFileSync(new URL('./baseline.json', import.meta.url), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * options: { gatewayUrl, maildevUrl, webUrl, adminWebUrl, authDbUrl, redisUrl, keyPrefix, chromePath }.
 * Resolves with the number of broken budgets (0: passed).
 */
export async function runWebCheck({ gatewayUrl, maildevUrl, webUrl, adminWebUrl, authDbUrl, redisUrl, keyPrefix, chromePath }) {
  const started = Date.now();
  say('making the audit accounts through the API (a member with photos and a conversation, an admin)');
  const accounts = await prepareAuditAccounts({ gatewayUrl, maildevUrl, authDbUrl, redisUrl, keyPrefix });
  say('Lighthouse 12.2.3, one first visit per screen (member: mobile; admin: desktop)');
  const results = await auditScreens({ webUrl, adminWebUrl, ...accounts, chromePath, log: say });
  process.stdout.write(`\n${formatResults(results, baseline())}\n\n`);
  const failures = budgetFailures(results);
  for (const f of failures) say(`BUDGET MISSED  ${f}`);
  say(`${failures.length === 0 ? 'every budget met' : `${failures.length} budget(s) missed`} in ${((Date.now() - started) / 1000).toFixed(0)} s (performance and LCP are printed, not enforced)`);
  return failures.length;
}
