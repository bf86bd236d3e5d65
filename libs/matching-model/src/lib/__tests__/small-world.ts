import type { ScoringProfile, SwipeRecord } from '../profile';
import { SeededRandom } from '../rng';
import { profile } from './profiles';

const INTERESTS = [
  'Travel',
  'Music',
  'Art',
  'Hiking',
  'Cooking',
  'Gaming',
  'Yoga',
  'Reading',
  'Food',
  'Movies',
];
const GOALS = [['long_term', 'marriage'], ['casual'], ['friendship']];
const HABITS = ['never', 'socially', 'regularly'];

/**
 * A small population with hidden tastes, for tests that need likes with a structure to learn:
 * each member has a latent type (two numbers) and a taste for types, an ideal age, a weight on
 * shared interests, goals and smoking, and a pickiness; `likeProbability` is the truth the
 * swipes are drawn from. Deterministic from the seed.
 */
export class SmallWorld {
  readonly members: ScoringProfile[];
  private readonly type = new Map<string, number[]>();
  private readonly taste = new Map<string, { weights: number[]; ideal: number; pickiness: number }>();

  constructor(seed: string, size: number) {
    const rng = new SeededRandom(seed);
    this.members = Array.from({ length: size }, (_, n) => {
      const id = `m-${String(n).padStart(4, '0')}`;
      const age = 22 + Math.floor(rng.next() * 20);
      this.type.set(id, [rng.normal(0, 1), rng.normal(0, 1)]);
      this.taste.set(id, {
        weights: [rng.normal(0.6, 0.3), rng.normal(0, 1)],
        ideal: age + rng.normal(0, 3),
        pickiness: rng.normal(-1.2, 0.5),
      });
      return profile(id, {
        age,
        minAge: age - 6,
        maxAge: age + 6,
        interests: INTERESTS.filter(() => rng.next() < 0.3),
        goals: GOALS[Math.floor(rng.next() * GOALS.length)],
        smoking: HABITS[Math.floor(rng.next() * HABITS.length)],
      });
    });
  }

  /** P(a likes b), the hidden truth. */
  likeProbability(a: ScoringProfile, b: ScoringProfile): number {
    const t = this.taste.get(a.userId) as { weights: number[]; ideal: number; pickiness: number };
    const type = this.type.get(b.userId) as number[];
    const shared = a.interests.filter((i) => b.interests.includes(i)).length;
    const z =
      t.pickiness +
      t.weights[0] * type[0] +
      t.weights[1] * type[1] +
      0.25 * shared -
      (0.5 * Math.abs((b.age ?? t.ideal) - t.ideal)) / 5 +
      (a.goals.some((g) => b.goals.includes(g)) ? 0.6 : -0.6) +
      (a.smoking === b.smoking ? 0.3 : 0);
    return 1 / (1 + Math.exp(-z));
  }

  /** Each member swipes `perMember` others picked at random, liking at the hidden probability. */
  swipes(seed: string, perMember: number): SwipeRecord[] {
    const rng = new SeededRandom(seed);
    const out: SwipeRecord[] = [];
    for (const a of this.members) {
      const seen = new Set<string>([a.userId]);
      while (seen.size <= perMember) {
        const b = this.members[Math.floor(rng.next() * this.members.length)];
        if (seen.has(b.userId)) continue;
        seen.add(b.userId);
        out.push({ swiperId: a.userId, targetId: b.userId, liked: rng.next() < this.likeProbability(a, b) });
      }
    }
    return out;
  }

  profiles(): Map<string, ScoringProfile> {
    return new Map(this.members.map((m) => [m.userId, m]));
  }
}
