/** Mean negative log-likelihood of the outcomes under the predicted probabilities (lower is better). */
export function logLoss(predicted: ArrayLike<number>, outcomes: ArrayLike<number>): number {
  if (predicted.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < predicted.length; i++) {
    const p = Math.min(1 - 1e-7, Math.max(1e-7, predicted[i]));
    sum -= outcomes[i] ? Math.log(p) : Math.log(1 - p);
  }
  return sum / predicted.length;
}

/**
 * Area under the ROC curve: the chance that a random like is ranked above a random pass (0.5 is
 * guessing). Ties count one half. 0.5 when only one class is present.
 */
export function auc(predicted: ArrayLike<number>, outcomes: ArrayLike<number>): number {
  const order = Array.from({ length: predicted.length }, (_, i) => i).sort(
    (a, b) => predicted[a] - predicted[b],
  );
  let positives = 0;
  let rankSum = 0;
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && predicted[order[j + 1]] === predicted[order[i]]) j++;
    const midRank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) {
      if (outcomes[order[k]]) {
        positives++;
        rankSum += midRank;
      }
    }
    i = j + 1;
  }
  const negatives = order.length - positives;
  if (positives === 0 || negatives === 0) return 0.5;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/**
 * Gini coefficient of a distribution (here: impressions per member): 0 when everyone is shown
 * equally, near 1 when a few get all the exposure.
 */
export function gini(values: readonly number[]): number {
  const n = values.length;
  if (n === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  let total = 0;
  let weighted = 0;
  for (let i = 0; i < n; i++) {
    total += sorted[i];
    weighted += (i + 1) * sorted[i];
  }
  if (total === 0) return 0;
  return (2 * weighted) / (n * total) - (n + 1) / n;
}
