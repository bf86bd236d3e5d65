import { pairTurns } from './chaos-run';

describe('pairTurns (when each pair of a chaos run likes its partner)', () => {
  it('starts half the pairs at once and ties each other pair to a fault the run makes', () => {
    // The short run of npm test: 4 pairs, 4 faults; the late pairs match under matching-service's
    // and Redis's kills, whatever time those take to recover.
    expect(pairTurns(8, 4)).toEqual([null, null, 1, 3]);
  });

  it('gives every pair a turn for any population and number of faults', () => {
    for (let members = 2; members <= 60; members += 2) {
      for (let faults = 0; faults <= 12; faults++) {
        const turns = pairTurns(members, faults);
        expect(turns).toHaveLength(members / 2);
        const late = turns.filter((t): t is number => t !== null);
        expect(late.every((t) => Number.isInteger(t) && t >= 0 && t < faults)).toBe(true);
        expect(turns.filter((t) => t === null).length).toBeGreaterThanOrEqual(Math.ceil(members / 4));
      }
    }
  });

  it('spreads the late pairs over the faults in order', () => {
    const turns = pairTurns(24, 11).filter((t): t is number => t !== null);
    expect(turns).toEqual([...turns].sort((x, y) => x - y));
    expect(new Set(turns).size).toBe(turns.length);
  });
});
