#!/usr/bin/env node
// The operation mix of the seeded population (k8s/README.md, "Capacity plan"): runs the seeder's
// own generators (tools/seed/lib: members, swipe history, conversations, analytics facts) for some
// windows of 2,000 members, without any database, and prints what a member does per active day
// over the analytics history's 90 days (an active day = one `member.active` fact, the analytics'
// definition of a daily member) and the ratios the plan scales with.
//   node k8s/capacity/seeded-mix.mjs [--seed 42] [--windows 5]
import { parseArgs } from 'node:util';

const lib = new URL('../../tools/seed/lib/', import.meta.url);
const { resolvedCities } = await import(new URL('cities.mjs', lib));
const { memberAt } = await import(new URL('population.mjs', lib));
const { swipeHistory, HISTORY_WINDOW } = await import(new URL('history.mjs', lib));
const { seedConversations } = await import(new URL('conversations.mjs', lib));
const { activityFacts, busyDaysOf, historyFacts, historyStart, memberFacts, ANALYTICS_HISTORY_DAYS } =
  await import(new URL('analytics.mjs', lib));
const { default: taste } = await import(new URL('taste.cjs', lib));

const { values } = parseArgs({
  options: { seed: { type: 'string', default: '42' }, windows: { type: 'string', default: '5' } },
});
const seed = values.seed;
const windows = Number(values.windows);
// A fixed clock: the same seed gives the same figures on any day.
const now = Date.parse('2026-11-30T12:00:00Z');
const cities = resolvedCities();
const tastes = new taste.HiddenTastes(seed);
const start = historyStart(now);

const inWindow = {};
const lifetime = { members: 0, swipes: 0, matches: 0, messages: 0 };
const hours = new Array(24).fill(0);
for (let w = 0; w < windows; w++) {
  const members = Array.from({ length: HISTORY_WINDOW }, (_, i) =>
    memberAt(seed, 1 + w * HISTORY_WINDOW + i, { cities, now }),
  );
  const history = swipeHistory(seed, members, { tastes, now });
  const conversations = seedConversations(seed, history.matches, new Map(members.map((m) => [m.userId, m])), {
    now,
  });
  lifetime.members += members.length;
  lifetime.swipes += history.swipes.length;
  lifetime.matches += history.matches.length;
  lifetime.messages += conversations.reduce((sum, c) => sum + c.messages.length, 0);
  const facts = historyFacts(seed, { ...history, conversations }, { now });
  const { facts: joined, dropouts } = memberFacts(seed, members, { now, photos: true });
  const activity = [
    ...activityFacts(seed, members, busyDaysOf(facts), { now }),
    ...activityFacts(
      seed,
      dropouts.map((d) => ({ ...d, dropout: true })),
      new Map(),
      { now },
    ),
  ];
  for (const f of [...facts, ...joined, ...activity]) {
    if (f.at.getTime() < start) continue;
    inWindow[f.type] = (inWindow[f.type] ?? 0) + 1;
    if (f.type === 'member.active') hours[f.at.getUTCHours()] += 1;
  }
}

const active = inWindow['member.active'];
const swipes = inWindow['like.created'] + inWindow['pass.created'];
const perActiveDay = (type) => +(inWindow[type] / active).toFixed(4);
const busiestHour = Math.max(...hours);
console.log(
  JSON.stringify(
    {
      seed,
      members: lifetime.members,
      days: ANALYTICS_HISTORY_DAYS,
      dailyActiveShare: +(active / ANALYTICS_HISTORY_DAYS / lifetime.members).toFixed(4),
      perActiveDay: {
        swipes: +(swipes / active).toFixed(4),
        likes: perActiveDay('like.created'),
        passes: perActiveDay('pass.created'),
        matches: perActiveDay('match.created'),
        messages: perActiveDay('message.sent'),
        calls: perActiveDay('call.ended'),
        reports: perActiveDay('report.created'),
        blocks: perActiveDay('user.blocked'),
        photoUploads: perActiveDay('photo.uploaded'),
        registrations: perActiveDay('user.registered'),
      },
      ratios: {
        likeShare: +(inWindow['like.created'] / swipes).toFixed(4),
        matchesPerLike: +(inWindow['match.created'] / inWindow['like.created']).toFixed(4),
        messagesPerMatch: +(lifetime.messages / lifetime.matches).toFixed(2),
        callsPerMatch: +(inWindow['call.ended'] / inWindow['match.created']).toFixed(4),
        swipesPerMemberLifetime: +(lifetime.swipes / lifetime.members).toFixed(2),
      },
      // member.active facts by UTC hour: the busiest hour over the mean hour.
      activePeakToMean: +(busiestHour / (active / 24)).toFixed(2),
    },
    null,
    2,
  ),
);
