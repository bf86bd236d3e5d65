// Hidden tastes: who likes whom in the seeded population and in the matching-quality simulation
// (issue 8). Every member has hidden traits (a latent "type" others react to) and hidden tastes
// (how much they care about those types, shared interests, age, distance, goals and lifestyle,
// and how picky they are), made from the seed and the member's id alone. Nothing here is visible
// to the product: the model has to learn it from the likes and passes it produces. CommonJS so
// the TypeScript bench, the ESM seeder and plain Node all load it (types in taste.d.cts).
'use strict';

// require() of an ES module: Node >= 20.19 loads one without top-level await synchronously (the
// repository's Node). Jest's module loader does not, so tests load this file in a child Node
// process (runModule in tools/seed/src/helpers.ts), never by importing it.
const { Rng } = require('./random.mjs');

/** Length of the latent type vector. Dimension 0 is a shared sense of attractiveness. */
const TYPE_DIM = 4;

const EARTH_RADIUS_KM = 6371;
const RAD = Math.PI / 180;
const SCALES = {
  smoking: { never: 0, socially: 1, regularly: 2 },
  drinking: { never: 0, socially: 1, regularly: 2 },
  exercise: { never: 0, sometimes: 1, regularly: 2, daily: 3 },
};

/**
 * @typedef {object} TasteMember What the tastes look at: a member's visible attributes.
 * @property {string} userId
 * @property {number | null} age
 * @property {readonly string[]} interests
 * @property {readonly string[]} goals relationship goals (relationshipGoalsOf(lookingFor))
 * @property {number | null} lat
 * @property {number | null} lng
 * @property {string | null} smoking
 * @property {string | null} drinking
 * @property {string | null} exercise
 * @property {string | null} pets
 * @property {number} minAge
 * @property {number} maxAge
 */

/**
 * @typedef {object} Taste One member's hidden taste.
 * @property {number[]} typeWeights how much each latent type dimension attracts them
 * @property {number} pickiness base logit: how readily they like anyone
 * @property {number} interestWeight logit per shared interest (up to 4)
 * @property {number} idealAge the age they like best
 * @property {number} ageWeight logit lost per 5 years away from idealAge
 * @property {number} distanceWeight logit lost per 25 km
 * @property {number} goalsWeight logit won (lost) when goals overlap (clash)
 * @property {number} lifestyleWeight logit per unit of lifestyle compatibility (4 fields, each -1..1)
 */

function distanceKm(a, b) {
  if (a.lat == null || a.lng == null || b.lat == null || b.lng == null) return null;
  const dLat = (b.lat - a.lat) * RAD;
  const dLng = (b.lng - a.lng) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

function lifestyleFit(a, b) {
  let sum = 0;
  for (const field of ['smoking', 'drinking', 'exercise']) {
    const x = a[field] == null ? undefined : SCALES[field][a[field]];
    const y = b[field] == null ? undefined : SCALES[field][b[field]];
    if (x === undefined || y === undefined) continue;
    const span = field === 'exercise' ? 3 : 2;
    sum += 1 - (2 * Math.abs(x - y)) / span;
  }
  if (a.pets != null && b.pets != null)
    sum += a.pets === b.pets ? 1 : a.pets === 'none' || b.pets === 'none' ? -1 : 0.5;
  return sum;
}

const sigmoid = (z) => 1 / (1 + Math.exp(-z));

/** The hidden traits and tastes of a seeded population, and the likes they produce. */
class HiddenTastes {
  /** @param {string | number} seed the run's seed: the same seed, the same tastes */
  constructor(seed) {
    this.seed = String(seed);
    /** @type {Map<string, number[]>} */
    this.types = new Map();
    /** @type {Map<string, Taste>} */
    this.tastes = new Map();
  }

  /**
   * A member's hidden type: what others' type weights react to.
   * @param {string} userId
   * @returns {number[]}
   */
  typeOf(userId) {
    let type = this.types.get(userId);
    if (!type) {
      const rng = new Rng('hidden-type', this.seed, userId);
      type = Array.from({ length: TYPE_DIM }, () => rng.normal(0, 1));
      this.types.set(userId, type);
    }
    return type;
  }

  /**
   * A member's hidden taste (their own age range centres their ideal age).
   * @param {TasteMember} member
   * @returns {Taste}
   */
  tasteOf(member) {
    let taste = this.tastes.get(member.userId);
    if (!taste) {
      const rng = new Rng('hidden-taste', this.seed, member.userId);
      taste = {
        typeWeights: Array.from({ length: TYPE_DIM }, (_, i) =>
          i === 0 ? rng.normal(0.7, 0.3) : rng.normal(0, 0.6),
        ),
        pickiness: rng.normal(-1.6, 0.6),
        interestWeight: rng.range(0.1, 0.35),
        idealAge: (member.minAge + member.maxAge) / 2 + rng.normal(0, 2),
        ageWeight: rng.range(0.2, 0.7),
        distanceWeight: rng.range(0.2, 0.6),
        goalsWeight: rng.range(0.3, 1.0),
        lifestyleWeight: rng.range(0.05, 0.3),
      };
      this.tastes.set(member.userId, taste);
    }
    return taste;
  }

  /**
   * P(a likes b) under a's hidden taste.
   * @param {TasteMember} a
   * @param {TasteMember} b
   * @returns {number}
   */
  likeProbability(a, b) {
    const t = this.tasteOf(a);
    const type = this.typeOf(b.userId);
    let z = t.pickiness;
    for (let i = 0; i < TYPE_DIM; i++) z += t.typeWeights[i] * type[i];
    let shared = 0;
    for (const interest of a.interests) if (b.interests.includes(interest)) shared++;
    z += t.interestWeight * Math.min(4, shared);
    if (b.age != null) z -= (t.ageWeight * Math.abs(b.age - t.idealAge)) / 5;
    const km = distanceKm(a, b);
    if (km !== null) z -= (t.distanceWeight * km) / 25;
    if (a.goals.length > 0 && b.goals.length > 0) {
      z += a.goals.some((g) => b.goals.includes(g)) ? t.goalsWeight : -t.goalsWeight;
    }
    z += t.lifestyleWeight * lifestyleFit(a, b);
    return sigmoid(z);
  }

  /**
   * Whether `a` likes `b` when shown them: a draw at likeProbability from a stream of the seed and
   * the pair, so the same pair decides the same way whoever (or whatever ranking) shows them.
   * @param {TasteMember} a
   * @param {TasteMember} b
   * @returns {boolean}
   */
  likes(a, b) {
    return new Rng('swipe', this.seed, a.userId, b.userId).next() < this.likeProbability(a, b);
  }

  /**
   * How `member` swipes through `candidates` (in order): a like or a pass for each.
   * @param {TasteMember} member
   * @param {readonly TasteMember[]} candidates
   * @returns {{ targetId: string, liked: boolean }[]}
   */
  swipe(member, candidates) {
    return candidates.map((b) => ({ targetId: b.userId, liked: this.likes(member, b) }));
  }
}

module.exports = { HiddenTastes, TYPE_DIM };
