import {
  ALL_GENDERS,
  ALL_LOOKING_FOR,
  BIO_MAX_LENGTH,
  EDUCATION_OPTIONS,
  EXERCISE_OPTIONS,
  FILTER_HEIGHT_MAX_CM,
  FILTER_HEIGHT_MIN_CM,
  HEIGHT_MAX_CM,
  HEIGHT_MIN_CM,
  INTERESTED_IN_OPTIONS,
  LOCATION_MAX_LENGTH,
  MAX_PHOTOS,
  NAME_MAX_LENGTH,
  OCCUPATION_MAX_LENGTH,
  ONBOARDING_BIO_MIN_LENGTH,
  ONBOARDING_INTEREST_SUGGESTIONS,
  ONBOARDING_LOOKING_FOR,
  PETS_OPTIONS,
  PROFILE_INTERESTS,
  PROFILE_LOOKING_FOR,
  RELATIONSHIP_GOAL_OPTIONS,
  SMOKING_DRINKING_OPTIONS,
  PREFERENCES_MAX_AGE,
  PREFERENCES_MIN_AGE,
  DISTANCE_MAX_KM,
  DISTANCE_MIN_KM,
  PREFERENCE_LIST_MAX_ITEMS,
  RELATIONSHIP_GOALS_BY_LOOKING_FOR,
  educationValueOf,
  type PreferencesDto,
} from '@mate/contracts';
import { fitsBothWays, mutualLikes, runModule, type RuleMember, type SwipeRow } from './helpers';

/** A seeded member as population.mjs makes it: what the hard rules read, and the rest of the rows. */
interface Member extends RuleMember {
  n: number;
  profileId: string;
  email: string;
  accountName: string;
  name: string;
  bio: string;
  location: string;
  occupation: string | null;
  photos: { id: string; kind: string; order: number; isPrimary: boolean; createdAt: string }[];
  preferences: RuleMember['preferences'] & Pick<PreferencesDto, 'interests' | 'dealbreakers'>;
  createdAt: string;
  verifiedAt: string;
  updatedAt: string;
}

const NOW = Date.parse('2026-06-01T12:00:00Z');
const COUNT = 4000;

function population(seed: string, from = 1, count = COUNT): Member[] {
  return runModule<Member[]>(`
    import { memberAt } from '$LIB/population.mjs';
    import { resolvedCities } from '$LIB/cities.mjs';
    const cities = resolvedCities();
    const out = [];
    for (let n = ${from}; n < ${from + count}; n++) out.push(memberAt(${JSON.stringify(seed)}, n, { cities, now: ${NOW} }));
    process.stdout.write(JSON.stringify(out));
  `);
}

const values = (options: readonly { value: string }[]) => options.map((o) => o.value);
const share = (members: Member[], test: (m: Member) => boolean) => members.filter(test).length / members.length;

describe('the demo population', () => {
  const members = population('spec');

  it("draws portraits that present like the member's gender", () => {
    for (const m of members as unknown as { gender: string; photos: { presentation: string | null }[] }[]) {
      const expected = m.gender === 'female' ? 'feminine' : m.gender === 'male' ? 'masculine' : null;
      for (const p of m.photos) expect(p.presentation).toBe(expected);
    }
  });

  it('gives every member distinct ids and an email <first>.<last>.<n>@demo.mate.local', () => {
    expect(new Set(members.map((m) => m.userId)).size).toBe(COUNT);
    expect(new Set(members.map((m) => m.profileId)).size).toBe(COUNT);
    expect(new Set(members.flatMap((m) => m.photos.map((p) => p.id))).size).toBe(
      members.reduce((sum, m) => sum + m.photos.length, 0),
    );
    expect(new Set(members.map((m) => m.email)).size).toBe(COUNT);
    for (const m of members) {
      expect(m.email).toMatch(new RegExp(`^[a-z0-9]+\\.[a-z0-9]+\\.${m.n}@demo\\.mate\\.local$`));
      expect(m.accountName.length).toBeLessThanOrEqual(NAME_MAX_LENGTH);
      expect(m.accountName.startsWith(`${m.name} `)).toBe(true);
    }
  });

  it('has ages 18–70, most of them in their twenties and thirties', () => {
    const ages = members.map((m) => m.age);
    expect(Math.min(...ages)).toBe(18);
    expect(Math.max(...ages)).toBeLessThanOrEqual(70);
    expect(Math.max(...ages)).toBeGreaterThanOrEqual(60);
    expect(share(members, (m) => m.age >= 25 && m.age <= 34)).toBeGreaterThan(0.35);
    expect(share(members, (m) => m.age >= 50)).toBeLessThan(0.15);
    const sorted = [...ages].sort((a, b) => a - b);
    expect(sorted[COUNT / 2]).toBeGreaterThanOrEqual(26);
    expect(sorted[COUNT / 2]).toBeLessThanOrEqual(34);
  });

  it('uses every gender of both readings, mostly men and women', () => {
    for (const m of members) expect(ALL_GENDERS).toContain(m.gender);
    expect(new Set(members.map((m) => m.gender))).toEqual(new Set(ALL_GENDERS));
    expect(share(members, (m) => m.gender === 'male')).toBeGreaterThan(0.4);
    expect(share(members, (m) => m.gender === 'female')).toBeGreaterThan(0.4);
  });

  it('uses lookingFor values of both readings', () => {
    for (const m of members) expect(ALL_LOOKING_FOR).toContain(m.lookingFor);
    const used = new Set(members.map((m) => m.lookingFor));
    for (const v of [...ONBOARDING_LOOKING_FOR, ...values(PROFILE_LOOKING_FOR)]) expect(used).toContain(v);
  });

  it('gives 2–8 distinct interests of the option lists, bios of 20–500 characters and sensible details', () => {
    const allowed = new Set<string>([...PROFILE_INTERESTS, ...ONBOARDING_INTEREST_SUGGESTIONS]);
    const labels = new Set<string>(EDUCATION_OPTIONS.map((o) => o.label));
    for (const m of members) {
      expect(m.interests.length).toBeGreaterThanOrEqual(2);
      expect(m.interests.length).toBeLessThanOrEqual(8);
      expect(new Set(m.interests).size).toBe(m.interests.length);
      for (const i of m.interests) expect(allowed).toContain(i);
      expect(m.bio.length).toBeGreaterThanOrEqual(ONBOARDING_BIO_MIN_LENGTH);
      expect(m.bio.length).toBeLessThanOrEqual(BIO_MAX_LENGTH);
      expect(m.bio).not.toMatch(/[{}]|undefined|null/);
      if (m.height !== null) {
        expect(m.height).toBeGreaterThanOrEqual(HEIGHT_MIN_CM);
        expect(m.height).toBeLessThanOrEqual(HEIGHT_MAX_CM);
      }
      if (m.education !== null) expect(labels).toContain(m.education);
      if (m.occupation !== null) expect(m.occupation.length).toBeLessThanOrEqual(OCCUPATION_MAX_LENGTH);
      expect(m.location.length).toBeLessThanOrEqual(LOCATION_MAX_LENGTH);
      expect(m.location).toMatch(/^[A-Za-z ]+, [A-Za-z ]+$/);
    }
    const mean = (g: string) => {
      const hs = members.filter((m) => m.gender === g && m.height !== null).map((m) => m.height as number);
      return hs.reduce((a, b) => a + b, 0) / hs.length;
    };
    expect(mean('male')).toBeGreaterThan(mean('female') + 8);
    expect(share(members, (m) => m.height === null)).toBeGreaterThan(0.05);
    expect(share(members, (m) => m.occupation !== null)).toBeGreaterThan(0.8);
  });

  it('spreads members over the nine cities, each with its coordinates', () => {
    const cities = new Set(members.map((m) => m.location.split(',')[0]));
    expect(cities).toEqual(
      new Set(['New York', 'Brooklyn', 'Los Angeles', 'Chicago', 'London', 'Paris', 'Berlin', 'Toronto', 'Sydney']),
    );
    for (const m of members) {
      expect(Number.isFinite(m.lat) && Number.isFinite(m.lng)).toBe(true);
    }
    const brooklyn = members.find((m) => m.location === 'Brooklyn, NY');
    expect(brooklyn).toMatchObject({ lat: 40.6501, lng: -73.94958 });
  });

  it('gives valid preferences: ages around their own, distance 1–200, a plausible orientation mix', () => {
    const interested = new Set<string>(INTERESTED_IN_OPTIONS);
    const lists: [keyof Member['preferences'], Set<string>][] = [
      ['educationPreference', new Set(values(EDUCATION_OPTIONS))],
      ['relationshipGoalPreference', new Set(values(RELATIONSHIP_GOAL_OPTIONS))],
      ['smokingPreference', new Set(values(SMOKING_DRINKING_OPTIONS))],
      ['drinkingPreference', new Set(values(SMOKING_DRINKING_OPTIONS))],
      ['exercisePreference', new Set(values(EXERCISE_OPTIONS))],
      ['petsPreference', new Set(values(PETS_OPTIONS))],
    ];
    for (const m of members) {
      const p = m.preferences;
      expect(p.minAge).toBeGreaterThanOrEqual(PREFERENCES_MIN_AGE);
      expect(p.minAge).toBeLessThanOrEqual(p.maxAge);
      expect(p.maxAge).toBeLessThanOrEqual(PREFERENCES_MAX_AGE);
      if (!(p.minAge === 18 && p.maxAge === 99)) {
        expect(p.minAge).toBeLessThanOrEqual(m.age);
        expect(p.maxAge).toBeGreaterThanOrEqual(Math.min(m.age, 99));
        expect(p.maxAge - p.minAge).toBeLessThanOrEqual(24);
      }
      expect(p.maxDistance).toBeGreaterThanOrEqual(DISTANCE_MIN_KM);
      expect(p.maxDistance).toBeLessThanOrEqual(DISTANCE_MAX_KM);
      for (const g of p.genderPreference) expect(interested).toContain(g);
      for (const [key, allowed] of lists) {
        const list = p[key] as string[];
        expect(list.length).toBeLessThanOrEqual(PREFERENCE_LIST_MAX_ITEMS);
        for (const v of list) expect(allowed).toContain(v);
      }
      if (p.minHeight !== null || p.maxHeight !== null) {
        expect(p.minHeight).toBeGreaterThanOrEqual(FILTER_HEIGHT_MIN_CM);
        expect(p.maxHeight).toBeLessThanOrEqual(FILTER_HEIGHT_MAX_CM);
        expect(p.minHeight).toBeLessThanOrEqual(p.maxHeight as number);
      }
      for (const i of [...p.requiredInterests, ...p.interests]) expect(m.interests).toContain(i);
    }
    const men = members.filter((m) => m.gender === 'male');
    const women = members.filter((m) => m.gender === 'female');
    const straightMen = share(men, (m) => m.preferences.genderPreference.join() === 'female');
    const straightWomen = share(women, (m) => m.preferences.genderPreference.join() === 'male');
    expect(straightMen).toBeGreaterThan(0.8);
    expect(straightMen).toBeLessThan(0.95);
    expect(straightWomen).toBeGreaterThan(0.75);
    expect(straightWomen).toBeLessThan(0.92);
    expect(share(men, (m) => m.preferences.genderPreference.join() === 'male')).toBeGreaterThan(0.02);
    expect(share(members, (m) => m.preferences.genderPreference.length === 0)).toBeGreaterThan(0);
    const filtered = share(members, (m) =>
      lists.some(([key]) => (m.preferences[key] as string[]).length > 0) || m.preferences.minHeight !== null,
    );
    expect(filtered).toBeGreaterThan(0.15);
    expect(filtered).toBeLessThan(0.5);
  });

  it('gives lifestyle values of spec 001 §3 to about three members in four, in keeping with their filters and interests', () => {
    const lists: ['smoking' | 'drinking' | 'exercise' | 'pets', string[]][] = [
      ['smoking', values(SMOKING_DRINKING_OPTIONS)],
      ['drinking', values(SMOKING_DRINKING_OPTIONS)],
      ['exercise', values(EXERCISE_OPTIONS)],
      ['pets', values(PETS_OPTIONS)],
    ];
    for (const [field, allowed] of lists) {
      for (const m of members) if (m[field] !== null) expect(allowed).toContain(m[field]);
      const said = share(members, (m) => m[field] !== null);
      expect(said).toBeGreaterThan(0.7);
      expect(said).toBeLessThan(0.8);
      // Every value occurs in a population of this size.
      expect(new Set(members.map((m) => m[field]))).toEqual(new Set([...allowed, null]));
    }
    // Someone who filters on smoking does not smoke regularly or keep it to themselves.
    for (const m of members.filter((x) => x.preferences.smokingPreference.length > 0)) {
      expect([null, 'never', 'socially']).toContain(m.smoking);
    }
    const active = members.filter((m) => m.interests.some((i) => ['Fitness', 'Sports', 'Yoga', 'Hiking', 'Dancing'].includes(i)));
    for (const m of active) expect(m.exercise).not.toBe('never');
    for (const m of members.filter((x) => x.interests.includes('Pets'))) expect(m.pets).not.toBe('none');
  });

  it('gives 1–4 photos, the first a primary portrait, ordered 0..n-1', () => {
    for (const m of members) {
      expect(m.photos.length).toBeGreaterThanOrEqual(1);
      expect(m.photos.length).toBeLessThanOrEqual(Math.min(4, MAX_PHOTOS));
      expect(m.photos.map((p) => p.order)).toEqual(m.photos.map((_, i) => i));
      expect(m.photos.map((p) => p.isPrimary)).toEqual(m.photos.map((_, i) => i === 0));
      expect(m.photos[0].kind).toBe('portrait');
    }
    expect(new Set(members.map((m) => m.photos.length))).toEqual(new Set([1, 2, 3, 4]));
  });

  it('dates accounts in the past: joined, then verified, then onboarded', () => {
    for (const m of members) {
      const [created, verified, updated] = [m.createdAt, m.verifiedAt, m.updatedAt].map(Date.parse);
      expect(created).toBeLessThanOrEqual(verified);
      expect(verified).toBeLessThanOrEqual(updated);
      expect(updated).toBeLessThanOrEqual(NOW);
      expect(NOW - created).toBeLessThan(560 * 24 * 3600 * 1000);
    }
  });

  it('is the same for the same seed, member by member, and different for another seed', () => {
    const again = population('spec', 1, 300);
    expect(again).toEqual(members.slice(0, 300));
    // A member depends on the seed and its number only, not on the members made before it.
    expect(population('spec', 1234, 1)[0]).toEqual(members[1233]);
    const other = population('other', 1, 300);
    expect(other.filter((m, i) => m.userId === members[i].userId)).toHaveLength(0);
    expect(other.filter((m, i) => m.bio === members[i].bio).length).toBeLessThan(30);
  });
});

interface History {
  window: number;
  swipes: (SwipeRow & { at: string })[];
  matches: { id: string; userA: string; userB: string; at: string }[];
}

/** The swipe history of the first window of members of `seed` (history.mjs with taste.cjs). */
function historyOf(seed: string): History {
  return runModule<History>(`
    import { memberAt } from '$LIB/population.mjs';
    import { resolvedCities } from '$LIB/cities.mjs';
    import { HISTORY_WINDOW, swipeHistory } from '$LIB/history.mjs';
    import { HiddenTastes } from '$LIB/taste.cjs';
    const cities = resolvedCities();
    const members = [];
    for (let n = 1; n <= HISTORY_WINDOW; n++) members.push(memberAt(${JSON.stringify(seed)}, n, { cities, now: ${NOW} }));
    const history = swipeHistory(${JSON.stringify(seed)}, members, { tastes: new HiddenTastes(${JSON.stringify(seed)}), now: ${NOW} });
    process.stdout.write(JSON.stringify({ window: HISTORY_WINDOW, ...history }));
  `);
}

describe('the seeded swipe history', () => {
  const history = historyOf('spec');
  const members = new Map(population('spec', 1, history.window).map((m) => [m.userId, m]));

  it('has members swipe, like and match, within their window', () => {
    expect(history.swipes.length).toBeGreaterThan(history.window * 5);
    const likes = history.swipes.filter((s) => s.liked).length;
    expect(likes / history.swipes.length).toBeGreaterThan(0.05);
    expect(likes / history.swipes.length).toBeLessThan(0.6);
    expect(history.matches.length).toBeGreaterThan(50);
    for (const s of history.swipes) {
      expect(members.has(s.swiperId)).toBe(true);
      expect(members.has(s.targetId)).toBe(true);
    }
  });

  it('only holds pairs whose hard rules accept each other both ways, each swiped once', () => {
    const pairs = new Set<string>();
    for (const s of history.swipes) {
      const [a, b] = [members.get(s.swiperId), members.get(s.targetId)] as RuleMember[];
      expect(fitsBothWays(a, b)).toBe(true);
      pairs.add(`${s.swiperId}|${s.targetId}`);
    }
    expect(pairs.size).toBe(history.swipes.length);
    // The rules do bite: most neighbouring members of the window could never meet.
    const list = [...members.values()];
    const fitting = list.slice(1).filter((m, i) => fitsBothWays(list[i], m)).length;
    expect(fitting / list.length).toBeLessThan(0.1);
  });

  it('has a match for exactly the mutual likes, with user_a < user_b and distinct ids', () => {
    expect(history.matches.map((m) => `${m.userA}|${m.userB}`).sort()).toEqual(mutualLikes(history.swipes));
    for (const m of history.matches) expect(m.userA < m.userB).toBe(true);
    expect(new Set(history.matches.map((m) => m.id)).size).toBe(history.matches.length);
  });

  it('dates swipes after both members finished onboarding and never in the future; a match with its later like', () => {
    for (const s of history.swipes) {
      const at = Date.parse(s.at);
      expect(at).toBeLessThanOrEqual(NOW);
      for (const id of [s.swiperId, s.targetId]) expect(at).toBeGreaterThanOrEqual(Date.parse(members.get(id)?.updatedAt ?? ''));
    }
    const likedAt = new Map(history.swipes.map((s) => [`${s.swiperId}|${s.targetId}`, Date.parse(s.at)]));
    for (const m of history.matches) {
      expect(Date.parse(m.at)).toBe(Math.max(likedAt.get(`${m.userA}|${m.userB}`) ?? 0, likedAt.get(`${m.userB}|${m.userA}`) ?? 0));
    }
  });

  it('is the same for the same seed and different for another', () => {
    expect(historyOf('spec')).toEqual(history);
    const other = historyOf('other');
    expect(other.swipes.filter((s, i) => s.swiperId === history.swipes[i]?.swiperId)).toHaveLength(0);
  });

  it("reads lookingFor and education as the contracts' filter mappings do", () => {
    const rules = runModule<{ goals: Record<string, string[]>; education: Record<string, string | null> }>(`
      import { GOALS_BY_LOOKING_FOR, educationValueOf } from '$LIB/rules.mjs';
      import { EDUCATION_LABELS } from '$LIB/vocabulary.mjs';
      const texts = [...Object.values(EDUCATION_LABELS), 'MIT, Computer Science', '', null];
      process.stdout.write(JSON.stringify({
        goals: GOALS_BY_LOOKING_FOR,
        education: Object.fromEntries(texts.map((t) => [String(t), educationValueOf(t)])),
      }));
    `);
    expect(rules.goals).toEqual(RELATIONSHIP_GOALS_BY_LOOKING_FOR);
    for (const [text, value] of Object.entries(rules.education)) {
      expect(value).toBe(educationValueOf(text === 'null' ? null : text));
    }
  });
});

describe('the demo pictures', () => {
  it('are SVG drawings of shapes and gradients only (no text), the same for the same seed', () => {
    const out = runModule<{ kind: string; svg: string; again: string; other: string }[]>(`
      import { pictureSvg, PHOTO_KINDS } from '$LIB/artwork.mjs';
      import { Rng } from '$LIB/random.mjs';
      const out = PHOTO_KINDS.map((kind) => ({
        kind,
        svg: pictureSvg(kind, new Rng('spec', kind), 640, 800),
        again: pictureSvg(kind, new Rng('spec', kind), 640, 800),
        other: pictureSvg(kind, new Rng('spec-2', kind), 640, 800),
      }));
      process.stdout.write(JSON.stringify(out));
    `);
    expect(out.map((o) => o.kind)).toEqual(['portrait', 'landscape', 'city', 'beach', 'abstract']);
    for (const o of out) {
      expect(o.svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="640" height="800"/);
      expect(o.svg).not.toMatch(/<text|<image|href=|font/i);
      expect(o.svg).toBe(o.again);
      expect(o.svg).not.toBe(o.other);
    }
  });
});

describe("the demo member's conversations (conversations.mjs with the options demo.mjs gives)", () => {
  interface Made {
    count: number;
    senders: string[];
    last: string;
    firstAt: number;
    lastAt: number;
    aReadSeq: number;
    bReadSeq: number;
    aUnread: number;
    bUnread: number;
  }
  const made = runModule<{ now: number; matchedAt: number; list: Made[] }>(`
    import { conversationOf } from '$LIB/conversations.mjs';
    const now = Date.UTC(2026, 10, 23, 12);
    const matchedAt = now - 3 * 24 * 3600e3;
    const a = { userId: '00000000-0000-4000-8000-00000000000a', name: 'Demo', interests: ['Coffee', 'Hiking'] };
    const b = { userId: '00000000-0000-4000-8000-00000000000b', name: 'Sam', interests: ['Coffee', 'Music'] };
    const match = { id: '00000000-0000-4000-8000-0000000000ff', userA: a.userId, userB: b.userId, at: new Date(matchedAt) };
    const list = [
      { count: 9, lastAt: now - 120e3, firstWriter: 1, unreadBy: 0, unreadRun: 2 },
      { count: 13, lastAt: now - 3 * 3600e3, firstWriter: 0, unreadBy: 0, unreadRun: 1 },
      { count: 72, lastAt: now - 26 * 3600e3, firstWriter: 0, allRead: true },
      { count: 0 },
    ].map((o) => {
      const c = conversationOf('demo', match, a, b, { now, ...o });
      return {
        count: c.messages.length,
        senders: c.messages.map((m) => (m.senderId === a.userId ? 'a' : 'b')),
        last: c.messages.at(-1)?.content ?? null,
        firstAt: c.messages[0]?.at.getTime() ?? null,
        lastAt: c.messages.at(-1)?.at.getTime() ?? null,
        aReadSeq: c.aReadSeq, bReadSeq: c.bReadSeq, aUnread: c.aUnread, bUnread: c.bUnread,
      };
    });
    process.stdout.write(JSON.stringify({ now, matchedAt, list }));
  `);

  it('makes the asked number of messages, the first writer first and the last one at the asked time', () => {
    const [recent, hours, long, empty] = made.list;
    expect([recent.count, hours.count, long.count, empty.count]).toEqual([9, 13, 72, 0]);
    expect([recent.senders[0], hours.senders[0], long.senders[0]]).toEqual(['b', 'a', 'a']);
    expect(recent.lastAt).toBe(made.now - 120e3);
    expect(hours.lastAt).toBe(made.now - 3 * 3600e3);
    for (const c of [recent, hours, long]) expect(c.firstAt).toBeGreaterThan(made.matchedAt);
    expect(empty).toMatchObject({ last: null, aReadSeq: 0, bReadSeq: 0, aUnread: 0, bUnread: 0 });
  });

  it("leaves exactly the other member's last messages unread by the demo member, or everything read", () => {
    const [recent, hours, long] = made.list;
    expect(recent.senders.slice(-3)).toEqual(['a', 'b', 'b']);
    expect(recent).toMatchObject({ aReadSeq: 7, aUnread: 2, bReadSeq: 9, bUnread: 0 });
    expect(hours.senders.slice(-2)).toEqual(['a', 'b']);
    expect(hours).toMatchObject({ aReadSeq: 12, aUnread: 1, bReadSeq: 13, bUnread: 0 });
    expect(long).toMatchObject({ aReadSeq: 72, bReadSeq: 72, aUnread: 0, bUnread: 0 });
    // A long exchange ends on its plan to meet.
    expect(long.last).toMatch(/see you|address|after work/i);
  });
});
