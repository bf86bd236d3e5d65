// The seeded swipe history (issue 8): seeded members have already used Discover, so the scoring
// model has likes and passes to learn from on the first start. Who likes whom comes from the
// hidden-taste generator (taste.cjs), the same one the matching-quality simulation uses; only
// pairs that matching's hard rules allow both ways (rules.mjs) ever meet.
import { Rng, uuidFrom } from './random.mjs';
import { distanceKm, genderGroupOf, GOALS_BY_LOOKING_FOR, mutuallyEligible } from './rules.mjs';
import { INTERESTED_IN } from './vocabulary.mjs';

/**
 * Members swipe among the members of their own window of consecutive numbers (a random sample of
 * the population, since a member's values do not depend on their number): the history of a large
 * run is made window by window with bounded memory, and does not depend on --batch-size.
 */
export const HISTORY_WINDOW = 2000;
/** Most cards one member has swiped (the average is about a third of it). */
const MAX_SWIPES = 60;
/** Chance that a member who was liked earlier is shown that admirer (ranking puts them first). */
const ADMIRER_SHOWN = 0.5;

/** What taste.cjs looks at: the member's visible attributes. */
function tasteMemberOf(m) {
  return {
    userId: m.userId,
    age: m.age,
    interests: m.interests,
    goals: GOALS_BY_LOOKING_FOR[m.lookingFor] ?? [],
    lat: m.lat,
    lng: m.lng,
    smoking: m.smoking,
    drinking: m.drinking,
    exercise: m.exercise,
    pets: m.pets,
    minAge: m.preferences.minAge,
    maxAge: m.preferences.maxAge,
  };
}

/**
 * @typedef {object} Swipe
 * @property {string} swiperId
 * @property {string} targetId
 * @property {boolean} liked
 * @property {Date} at
 *
 * @typedef {object} Match
 * @property {string} id
 * @property {string} userA the smaller id (matching's `match` table keeps user_a < user_b)
 * @property {string} userB
 * @property {Date} at
 */

/**
 * The swipes and matches of one window of members (in number order). Each member swipes up to
 * MAX_SWIPES cards (how active they are is their own draw): first, with some chance each, the
 * members who liked them earlier in the window, then others picked at random among those in
 * reach (places within their distance, genders they are interested in); every card is a pair
 * both members' rules accept. `tastes` (a taste.cjs HiddenTastes of the run's seed) decides each
 * like or pass. A like answered by a like is a match. Deterministic for the seed and the window.
 *
 * @param {string} seed the run's seed
 * @param {any[]} members the window's members (memberAt of population.mjs)
 * @param {{ tastes: import('./taste.cjs').HiddenTastes, now: number }} options
 * @returns {{ swipes: Swipe[], matches: Match[] }}
 */
export function swipeHistory(seed, members, { tastes, now }) {
  const profiles = members.map(tasteMemberOf);
  /** Members by place and interested-in gender: where a member looks for cards. */
  const buckets = new Map();
  const places = new Map();
  members.forEach((m, i) => {
    places.set(m.cityKey, m);
    const key = `${m.cityKey}|${genderGroupOf(m.gender)}`;
    buckets.set(key, [...(buckets.get(key) ?? []), i]);
  });
  /** Who liked member i so far (their index) and when. */
  const admirers = members.map(() => /** @type {Map<number, Date>} */ (new Map()));
  /** @type {Swipe[]} */
  const swipes = [];
  /** @type {Match[]} */
  const matches = [];

  members.forEach((a, i) => {
    const rng = new Rng('history', seed, a.n);
    const quota = Math.floor(rng.next() ** 1.5 * (MAX_SWIPES + 1));
    const chosen = new Set([...admirers[i].keys()].filter(() => rng.chance(ADMIRER_SHOWN)).slice(0, quota));
    const wanted = a.preferences.genderPreference.length ? a.preferences.genderPreference.map(genderGroupOf) : INTERESTED_IN;
    const reachable = [];
    for (const [key, place] of places) {
      if (distanceKm(a, place) > a.preferences.maxDistance) continue;
      for (const gender of wanted) reachable.push(...(buckets.get(`${key}|${gender}`) ?? []));
    }
    // A partial shuffle: draw at random until the quota is met or nobody in reach is left.
    for (let k = 0; k < reachable.length && chosen.size < quota; k++) {
      const j = k + Math.floor(rng.next() * (reachable.length - k));
      [reachable[k], reachable[j]] = [reachable[j], reachable[k]];
      const b = reachable[k];
      if (!chosen.has(b) && mutuallyEligible(a, members[b])) chosen.add(b);
    }
    const cards = [...chosen];
    const decisions = tastes.swipe(profiles[i], cards.map((b) => profiles[b]));
    decisions.forEach(({ liked }, k) => {
      const b = cards[k];
      const other = members[b];
      const since = Math.max(a.updatedAt.getTime(), other.updatedAt.getTime());
      const at = new Date(since + Math.floor(rng.next() * (now - since)));
      swipes.push({ swiperId: a.userId, targetId: other.userId, liked, at });
      if (!liked) return;
      const theirs = admirers[i].get(b);
      if (theirs) {
        const [userA, userB] = a.userId < other.userId ? [a.userId, other.userId] : [other.userId, a.userId];
        matches.push({ id: uuidFrom('match', seed, userA, userB), userA, userB, at: new Date(Math.max(at.getTime(), theirs.getTime())) });
      } else {
        admirers[b].set(i, at);
      }
    });
  });
  return { swipes, matches };
}
