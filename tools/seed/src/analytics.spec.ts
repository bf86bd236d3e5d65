import { REPORT_REASONS } from '@mate/contracts';
import { runModule } from './helpers';

/** What analytics.mjs makes of a 1,000-member population with its history (serialised facts). */
interface Fact {
  id: string;
  type: string;
  userId: string | null;
  otherUserId: string | null;
  subjectId: string | null;
  day: string;
  at: string;
  props: Record<string, unknown>;
}
interface Made {
  now: number;
  members: { userId: string; createdAt: string }[];
  facts: Fact[];
  swipes: number;
  likes: number;
  matches: number;
  messages: number;
  again: string;
}

const DAY_MS = 24 * 3600 * 1000;

/** The facts of the population of seed 7 (members, history and conversations of one window, as run.mjs makes them). */
function make(): Made {
  return runModule<Made>(`
    import { createHash } from 'node:crypto';
    import { memberAt } from '$LIB/population.mjs';
    import { resolvedCities } from '$LIB/cities.mjs';
    import { swipeHistory } from '$LIB/history.mjs';
    import { seedConversations } from '$LIB/conversations.mjs';
    import taste from '$LIB/taste.cjs';
    import { activityFacts, busyDaysOf, historyFacts, memberFacts } from '$LIB/analytics.mjs';
    const seed = '7';
    const now = Date.parse('2026-11-23T15:30:00Z');
    const cities = resolvedCities();
    const members = Array.from({ length: 1000 }, (_, i) => memberAt(seed, i + 1, { cities, now }));
    const history = swipeHistory(seed, members, { tastes: new taste.HiddenTastes(seed), now });
    const conversations = seedConversations(seed, history.matches, new Map(members.map((m) => [m.userId, m])), { now });
    const all = () => {
      const { facts, dropouts } = memberFacts(seed, members, { now });
      const made = historyFacts(seed, { ...history, conversations }, { now });
      return [
        ...facts,
        ...made,
        ...activityFacts(seed, members, busyDaysOf(made), { now }),
        ...activityFacts(seed, dropouts.map((d) => ({ ...d, dropout: true })), new Map(), { now }),
      ];
    };
    const facts = all();
    const again = createHash('sha256').update(JSON.stringify(all())).digest('hex');
    process.stdout.write(JSON.stringify({
      now,
      members: members.map((m) => ({ userId: m.userId, createdAt: m.createdAt })),
      facts,
      swipes: history.swipes.length,
      likes: history.swipes.filter((s) => s.liked).length,
      matches: history.matches.length,
      messages: conversations.reduce((n, c) => n + c.messages.length, 0),
      again: again === createHash('sha256').update(JSON.stringify(facts)).digest('hex') ? 'same' : 'different',
    }));
  `);
}

describe('the analytics history (analytics.mjs)', () => {
  let made: Made;
  const of = (type: string) => made.facts.filter((f) => f.type === type);
  const today = () => new Date(made.now).toISOString().slice(0, 10);

  beforeAll(() => {
    made = make();
  });

  it('is the same for the same seed and clock, each fact with its own id, none in the future', () => {
    expect(made.again).toBe('same');
    expect(new Set(made.facts.map((f) => f.id)).size).toBe(made.facts.length);
    for (const f of made.facts) {
      // Messages are chat's seeded ones, which keep their order by milliseconds at the clock's edge.
      expect(Date.parse(f.at)).toBeLessThanOrEqual(made.now + (f.type === 'message.sent' ? 60_000 : 0));
      expect(f.day <= today()).toBe(true);
    }
  });

  it('tells each seeded member once as the services would: registered, verified, onboarded, photos', () => {
    for (const type of ['user.registered', 'user.verified', 'onboarding.completed']) {
      const members = new Set(of(type).map((f) => f.userId));
      for (const m of made.members) expect(members.has(m.userId)).toBe(true);
    }
    const registered = new Map(of('user.registered').map((f) => [f.userId, f.at]));
    for (const m of made.members) expect(registered.get(m.userId)).toBe(m.createdAt);
    expect(of('photo.uploaded').length).toBeGreaterThanOrEqual(made.members.length);
  });

  it('has sign-ups that never became members, each deleted again: members minus deletions are the accounts', () => {
    const seeded = new Set(made.members.map((m) => m.userId));
    const dropouts = of('user.registered').filter((f) => !seeded.has(f.userId as string));
    const deleted = new Set(of('user.deleted').map((f) => f.userId));
    expect(dropouts.length).toBeGreaterThan(50);
    expect(dropouts.every((f) => deleted.has(f.userId))).toBe(true);
    expect(of('user.registered').length - deleted.size).toBe(made.members.length);
    // Not everybody completes: the funnel's rates are below 1.
    const registeredIds = new Set(of('user.registered').map((f) => f.userId));
    const onboarded = new Set(of('onboarding.completed').filter((f) => f.props['skipped'] !== true).map((f) => f.userId));
    const rate = onboarded.size / registeredIds.size;
    expect(rate).toBeGreaterThan(0.75);
    expect(rate).toBeLessThan(0.97);
  });

  it("holds every swipe, match and message of the seeded history, the match's completing like marked matched", () => {
    expect(of('like.created').length + of('pass.created').length).toBe(made.swipes);
    expect(of('like.created').length).toBe(made.likes);
    expect(of('match.created').length).toBe(made.matches);
    expect(of('like.created').filter((f) => f.props['matched'] === true).length).toBe(made.matches);
    expect(of('message.sent').length).toBe(made.messages);
    expect(of('message.sent').filter((f) => f.props['first'] === true).length).toBeGreaterThan(0);
  });

  it('covers 90 days of daily activity with a believable DAU, MAU and retention', () => {
    const active = of('member.active');
    const days = [...new Set(active.map((f) => f.day))].sort();
    expect(days).toHaveLength(90);
    expect(days[0]).toBe(new Date(made.now - 89 * DAY_MS).toISOString().slice(0, 10));
    expect(days[89]).toBe(today());
    const perMemberDay = new Set(active.map((f) => `${f.userId}|${f.day}`));
    expect(perMemberDay.size).toBe(active.length);
    const within = (n: number) => new Set(active.filter((f) => f.day > new Date(made.now - n * DAY_MS).toISOString().slice(0, 10)).map((f) => f.userId)).size;
    const dau = within(1);
    const mau = within(30);
    expect(mau / made.members.length).toBeGreaterThan(0.3);
    expect(mau / made.members.length).toBeLessThan(0.9);
    expect(dau / mau).toBeGreaterThan(0.08);
    expect(dau / mau).toBeLessThan(0.6);
    // Every day has activity, none has nearly everybody.
    const perDay = days.map((d) => active.filter((f) => f.day === d).length);
    expect(Math.min(...perDay)).toBeGreaterThan(10);
    expect(Math.max(...perDay)).toBeLessThan(made.members.length / 2);
  });

  it('has a few reports by reason, each resolved after hours, blocks, and suspensions that were all lifted', () => {
    const reports = of('report.created');
    const resolutions = new Map(of('report.resolved').map((f) => [f.subjectId, f]));
    expect(reports.length).toBeGreaterThan(3);
    expect(reports.length).toBeLessThan(100);
    for (const r of reports) {
      expect(REPORT_REASONS).toContain(r.props['reason']);
      const resolution = resolutions.get(r.subjectId);
      expect(resolution).toBeDefined();
      expect(resolution?.props['reportedAt']).toBe(r.at);
      expect(Date.parse(resolution?.at ?? '')).toBeGreaterThan(Date.parse(r.at));
      expect(['reviewed', 'dismissed']).toContain(resolution?.props['status']);
    }
    expect(of('user.blocked').length).toBeGreaterThan(0);
    const suspended = of('user.suspended');
    const lifted = new Map(of('user.unsuspended').map((f) => [f.userId, f.at]));
    for (const s of suspended) expect(Date.parse(lifted.get(s.userId) ?? '')).toBeGreaterThan(Date.parse(s.at));
  });
});
