import { coarseDistanceLabel } from '@mate/contracts';
import { startMatchingTestBed, type MatchingTestBed, type Place } from '../../__tests__/matching-test-bed';

/** Great-circle kilometres, as the service measures between places. */
function km(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h =
    Math.sin(rad(b.latitude - a.latitude) / 2) ** 2 +
    Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(rad(b.longitude - a.longitude) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The trilateration attack of issue 8: an attacker moves their own location a hundred times
 * around a target and writes down the distance Discover shows. Locations reach matching-service
 * only as city centres (profile-service geocodes the place text), so everyone in one city has
 * the same coordinates here, and distances are shown only as coarse buckets.
 */
describe('distance privacy against an attacker who moves around a target (real PostgreSQL)', () => {
  let bed: MatchingTestBed;

  beforeAll(async () => {
    // The attacker loads Discover a hundred times in a row: past a person's rate (member-rate-limits.ts).
    bed = await startMatchingTestBed('matching_privacy', { env: { MEMBER_RATE_LIMIT_MULTIPLIER: '10' } });
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('learns nothing finer than the target’s city from 100 probes', async () => {
    const city = bed.place();
    // Two members who live at different addresses of one city: matching only ever gets the centre.
    const target = await bed.member(city, { maxDistance: 200 });
    const neighbour = await bed.member(city, { maxDistance: 200 });
    const attacker = await bed.member(city, { maxDistance: 200 });

    const probes: Place[] = [];
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        // A 10 × 10 grid, 0.2° apart (about 22 km north-south), around the target's city.
        probes.push({
          latitude: city.latitude - 0.9 + 0.2 * i,
          longitude: city.longitude - 0.9 + 0.2 * j,
          locationText: `Probe ${i}/${j}`,
        });
      }
    }
    const answers: { target: string | null; neighbour: string | null }[] = [];
    for (const probe of probes) {
      await bed.updateProfile(attacker.userId, probe);
      const cards = await bed.suggestions(attacker);
      const label = (id: string) => cards.find((c) => c.user.id === id)?.distance ?? null;
      answers.push({ target: label(target.userId), neighbour: label(neighbour.userId) });
    }

    expect(answers).toHaveLength(100);
    // Every probe was answered, and with a coarse bucket only: 'in your city' or 'about N km'
    // rounded up to 10 km (to 50 km from 100 km on).
    for (const { target: label } of answers) {
      expect(label).toMatch(/^(in your city|about \d+0 km)$/);
    }
    // Any two positions inside the city give the same answers: what the probes can pin down is
    // the city's centre, which is public (the city), never where in it the target lives.
    expect(answers.map((a) => a.neighbour)).toEqual(answers.map((a) => a.target));
    // The answers are exactly the buckets of the distance between the city centre and the probe.
    expect(answers.map((a) => a.target)).toEqual(probes.map((p) => coarseDistanceLabel(km(p, city))));
    // And they are coarse: the 100 probes, from ~3 to ~140 km away, fall into a handful of buckets.
    expect(new Set(answers.map((a) => a.target)).size).toBeLessThanOrEqual(15);
  }, 60_000);
});
