import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import {
  eventQueueName,
  SERVICES,
  type AdminStatsDto,
  type AnalyticsOverviewDto,
  type EventEnvelope,
  type MatchAnalyticsDto,
} from '@mate/contracts';
import { CLOCK, createQueueConnection, ManualClock } from '@mate/server-kit';
import { eventEnvelope, waitFor, type SignedIn } from '@mate/server-kit/testing';
import { closedServiceUrl, startAdminTestBed, type AdminTestBed } from '../../__tests__/admin-test-bed';
import { adminEnvFor, sharedInfra, startOwner, type OwnerProcess, type SharedInfra } from '../../__tests__/owner-processes';

const TODAY = '2026-03-31';
const DAY_MS = 24 * 3600 * 1000;
const at = (offset: number) => new Date(Date.parse(`${TODAY}T13:00:00Z`) + offset * DAY_MS).toISOString();

/**
 * Issue 25: the dashboard's Total Matches (statistics), the analytics' Total Matches card
 * (overview) and Match Performance's total (matches, for every period) are one count: the
 * matches ever made (README "What a match is"). Statistics run with the real auth-service and
 * safety-service answering their parts; the matches arrive through admin-service's real event
 * queue, made at different ages.
 */
describe('admin: one definition of a match on every screen (real auth and safety, real event queue)', () => {
  let infra: SharedInfra;
  let owners: OwnerProcess[] = [];
  let t: AdminTestBed;
  let admin: SignedIn;
  let queue: Queue<EventEnvelope>;
  let connection: ReturnType<typeof createQueueConnection>;

  beforeAll(async () => {
    infra = await sharedInfra('admin_match_totals');
    const closed = await closedServiceUrl();
    owners = await Promise.all([
      startOwner(SERVICES.auth, infra, {
        PROFILE_SERVICE_URL: closed,
        MATCHING_SERVICE_URL: closed,
        SAFETY_SERVICE_URL: closed,
        CHAT_SERVICE_URL: closed,
        CALL_SERVICE_URL: closed,
        NOTIFICATION_SERVICE_URL: closed,
      }),
      startOwner(SERVICES.safety, infra, { CHAT_SERVICE_URL: closed }),
    ]);
    const [auth, safety] = owners;
    t = await startAdminTestBed('admin_match_totals', {
      // matching-service is not running: the statistics no longer ask it for matches.
      env: { ...adminEnvFor(infra, { AUTH: auth, SAFETY: safety }), MATCHING_SERVICE_URL: closed },
      overrides: [{ provide: CLOCK, useValue: new ManualClock(new Date(`${TODAY}T18:00:00Z`)) }],
    });
    admin = await t.admin();
    connection = createQueueConnection(infra.redisUrl);
    queue = new Queue<EventEnvelope>(eventQueueName(SERVICES.admin), { connection, prefix: infra.prefix });
  }, 180_000);

  afterAll(async () => {
    await queue?.close();
    await connection?.quit();
    await t?.close();
    await Promise.allSettled(owners.map((o) => o.stop()));
    await infra?.cleanup();
  });

  /** The three totals a moderator sees, and the period figures of Match Performance. */
  async function totals() {
    const stats = await t.api<AdminStatsDto>(admin, 'GET', '/api/admin/stats');
    expect(stats.status).toBe(200);
    const overview = await t.api<AnalyticsOverviewDto>(admin, 'GET', '/api/admin/analytics/overview');
    const periods: Record<number, MatchAnalyticsDto> = {};
    for (const days of [7, 30, 90]) periods[days] = (await t.api<MatchAnalyticsDto>(admin, 'GET', `/api/admin/analytics/matches?days=${days}`)).body;
    return { dashboard: stats.body.matches.total, analytics: overview.body.totalMatches, periods };
  }

  /** match.created as matching-service publishes it, through the relay's queue. */
  async function matchesMade(made: { matchId: string; daysAgo: number }[]): Promise<void> {
    const envelopes = made.map(({ matchId, daysAgo }) =>
      eventEnvelope(SERVICES.matching, 'match.created', {
        matchId,
        userIds: [randomUUID(), randomUUID()].sort() as [string, string],
        createdAt: at(-daysAgo),
      }),
    );
    await queue.addBulk(envelopes.map((e) => ({ name: e.name, data: e, opts: { jobId: e.id } })));
    await waitFor(
      async () => {
        const ids = envelopes.map((e) => e.id);
        const [{ n }] = await t.bed.dataSource.query('SELECT count(*)::int AS n FROM processed_event WHERE event_id::text = ANY($1::text[])', [ids]);
        return n === ids.length;
      },
      { what: 'the matches to reach the event store' },
    );
  }

  it('shows the same total on the dashboard, the analytics card and Match Performance for 7, 30 and 90 days', async () => {
    expect(await totals()).toMatchObject({ dashboard: 0, analytics: 0 });
    const republished = randomUUID();
    await matchesMade([
      { matchId: randomUUID(), daysAgo: 0 },
      { matchId: randomUUID(), daysAgo: 3 },
      { matchId: randomUUID(), daysAgo: 12 },
      { matchId: republished, daysAgo: 45 },
      { matchId: republished, daysAgo: 45 },
      { matchId: randomUUID(), daysAgo: 200 },
    ]);
    const { dashboard, analytics, periods } = await totals();
    expect({ dashboard, analytics }).toEqual({ dashboard: 5, analytics: 5 });
    expect(periods[7]).toMatchObject({ totalMatches: 5, matchesInPeriod: 2, newMatches7d: 2, newMatches30d: 3 });
    expect(periods[30]).toMatchObject({ totalMatches: 5, matchesInPeriod: 3, newMatches7d: 2, newMatches30d: 3 });
    expect(periods[90]).toMatchObject({ totalMatches: 5, matchesInPeriod: 4, newMatches7d: 2, newMatches30d: 3 });
  });
});
