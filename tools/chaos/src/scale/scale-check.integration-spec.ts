import { runScaleCheck, SHORT_SCALE_FAULTS, type ScaleCheckResult } from './check';

/**
 * The short scale check of `npm test` (the full one is `npm run scale:check`, README): the platform
 * in the topology of issue 29 (a Redis Cluster of 3 masters and 3 replicas, a PostgreSQL primary and
 * streaming replica behind PgBouncer in transaction pooling, 2 replicas of the gateway and of every
 * service behind HAProxy), two API journeys through it, then 8 members chatting, matching, calling
 * and reading while a Redis master, the PostgreSQL replica, a chat-service replica and a gateway
 * are killed in turn. It runs in a stage of its own (tools/scripts/test.mjs): twenty processes.
 */

/** About 3 minutes on a quiet 2-core machine; the bound allows a loaded one. */
const RUN_TIMEOUT_MS = 900_000;

describe('the scaled topology under faults (short scale check)', () => {
  let result: ScaleCheckResult;

  beforeAll(async () => {
    result = await runScaleCheck({ short: true, log: (line) => process.stdout.write(`[scale] ${line}\n`) });
    process.stdout.write(`${result.report}\n`);
  }, RUN_TIMEOUT_MS);

  it("passes the API journeys through the load-balanced gateway, on the cluster, the pooler and the replica", () => {
    expect(result.journeysPassed).toBe(true);
  });

  it('kills each target in turn and every pair matched and wrote through them', () => {
    const chaos = result.chaos;
    expect(chaos?.rows.map((r) => r.fault)).toEqual(SHORT_SCALE_FAULTS);
    expect(chaos?.matches).toBe(4);
    expect(chaos?.messages.handed).toBeGreaterThan(30);
    // Each fault is over (the cluster healthy again, the replica's readers on the primary, the killed process back).
    for (const row of chaos?.rows ?? []) expect({ fault: row.fault, recovered: row.windowMs > 0 && row.recoveryMs !== null }).toEqual({ fault: row.fault, recovered: true });
  });

  it('loses no message and doubles none, and applies every event once in effect', () => {
    const chaos = result.chaos;
    expect(chaos?.messages.acked).toBe(chaos?.messages.handed);
    expect(chaos?.messages.delivered).toBe(chaos?.messages.handed);
    expect(chaos?.checks.filter((c) => c.problems.length).map((c) => `${c.name}: ${c.problems.slice(0, 3).join('; ')}`)).toEqual([]);
  });

  it('answers no 5xx outside the kill windows and their grace', () => {
    expect(result.chaos?.failuresOutside.map((r) => `${new Date(r.startedAt).toISOString()} ${r.what} ${r.status}`)).toEqual([]);
  });
});
