// `npm run bench:matching-quality [-- --members N --rounds R --history H --seed S]`: in a simulated
// population whose hidden tastes (tools/seed/lib/taste.cjs) drive the swipes, each of four
// rankings (random order, most shared interests, the scoring model refitted between rounds, and
// the oracle that ranks by the hidden tastes themselves) runs its own world for R rounds of 20
// suggestions per member. It prints the mutual-match rate (matches per suggestion) and the Gini
// coefficient of impressions per member, checks the targets of issue 8, and shows how much of the
// oracle's mutual-match rate the model reaches (issue 27: information, not a target). In memory
// only: no database, no service. See tools/bench/README.md.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { HiddenTastes } from '../../seed/lib/taste.cjs';
import { SeededRandom } from '@mate/matching-model';
import { resultFile } from '../lib/run';
import { eligiblePools, makePopulation } from './population';
import {
  history,
  oracle,
  playRound,
  randomOrder,
  resultOf,
  scoringModel,
  sharedInterests,
  type MethodResult,
} from './simulation';

const RESULT_FILE = resultFile(path.join(__dirname, 'last-result.json'));
const TARGETS = { overHeuristic: 2, overRandom: 4 };

function option(value: string | undefined, fallback: number, max: number, name: string): number {
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    process.stderr.write(`--${name} must be a whole number from 1 to ${max}\n`);
    process.exit(2);
  }
  return n;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      members: { type: 'string' },
      rounds: { type: 'string' },
      history: { type: 'string' },
      seed: { type: 'string' },
    },
  });
  const members = option(values.members, 4000, 50_000, 'members');
  const rounds = option(values.rounds, 4, 20, 'rounds');
  const historySize = option(values.history, 20, 200, 'history');
  const seed = values.seed ?? '42';
  const started = Date.now();

  const population = makePopulation(seed, members);
  const pools = eligiblePools(population);
  const tastes = new HiddenTastes(seed);
  const start = history(population, pools, tastes, seed, historySize);
  const poolSizes = population.map((m) => pools.get(m.userId)?.length ?? 0).sort((a, b) => a - b);
  process.stdout.write(
    `matching quality: ${members} members, median pool ${poolSizes[poolSizes.length >> 1]}, ` +
      `${rounds} rounds of 20 after a random history of ${historySize} swipes each (seed ${seed}, ${os.cpus().length} CPUs)\n`,
  );

  const model = scoringModel(population);
  const results: MethodResult[] = [];
  for (const method of [randomOrder, sharedInterests, model, oracle(tastes)]) {
    const world = start.copy(population);
    const rng = new SeededRandom(`rounds:${seed}`);
    for (let round = 1; round <= rounds; round++) {
      method.prepare(world, round);
      playRound(method, world, population, pools, tastes, rng);
    }
    results.push(resultOf(method, world, population));
  }

  const pad = (s: string | number, n: number) => String(s).padStart(n);
  process.stdout.write(
    `\n${'method'.padEnd(18)}${pad('shown', 9)}${pad('likes', 9)}${pad('matches', 9)}${pad('match rate', 12)}${pad('Gini', 7)}\n`,
  );
  for (const r of results) {
    process.stdout.write(
      `${r.method.padEnd(18)}${pad(r.shown, 9)}${pad(r.likes, 9)}${pad(r.matches, 9)}` +
        `${pad(`${(100 * r.mutualMatchRate).toFixed(2)}%`, 12)}${pad(r.gini.toFixed(3), 7)}\n`,
    );
  }
  const [random, heuristic, fitted, byTastes] = results;
  const overHeuristic = fitted.mutualMatchRate / heuristic.mutualMatchRate;
  const overRandom = fitted.mutualMatchRate / random.mutualMatchRate;
  // How close the model gets to ranking by the tastes it has to learn: information, not a target.
  const modelShareOfOracle = fitted.mutualMatchRate / byTastes.mutualMatchRate;
  const giniOk = fitted.gini <= heuristic.gini;
  const last = model.fits[model.fits.length - 1];
  process.stdout.write(
    `\nmodel ÷ shared interests: ${overHeuristic.toFixed(2)}× (target ≥ ${TARGETS.overHeuristic}×)\n` +
      `model ÷ random:           ${overRandom.toFixed(2)}× (target ≥ ${TARGETS.overRandom}×)\n` +
      `model reaches ${modelShareOfOracle.toFixed(2)}× of the oracle's mutual matches (information, not a target)\n` +
      `Gini model ${fitted.gini.toFixed(3)} vs shared interests ${heuristic.gini.toFixed(3)} (target: not above)\n` +
      `last refit: ${last.trainedOn} swipes, held-out AUC ${last.auc} (prior ${last.priorAuc}), ` +
      `log loss ${last.logLoss} (prior ${last.priorLogLoss})\n` +
      `took ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  const met = overHeuristic >= TARGETS.overHeuristic && overRandom >= TARGETS.overRandom && giniOk;
  if (!met) process.stdout.write('TARGET MISSED\n');
  writeFileSync(
    RESULT_FILE,
    `${JSON.stringify({ at: new Date().toISOString(), members, rounds, history: historySize, seed, results, overHeuristic, overRandom, modelShareOfOracle, fits: model.fits }, null, 2)}\n`,
  );
}

main();
