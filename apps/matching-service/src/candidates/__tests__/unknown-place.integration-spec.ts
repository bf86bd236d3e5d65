import { DEFAULT_MAX_DISTANCE_KM } from '@mate/contracts';
import { startMatchingTestBed, type MatchingTestBed } from '../../__tests__/matching-test-bed';

jest.setTimeout(120_000);

const NEW_YORK = { latitude: 40.7128, longitude: -74.006, locationText: 'New York, NY' };
const BROOKLYN = { latitude: 40.6501, longitude: -73.9496, locationText: 'Brooklyn, NY' };
const REYKJAVIK = { latitude: 64.1466, longitude: -21.9426, locationText: 'Reykjavik, Iceland' };
/** Typed before the geocoder folded special letters: stored with no coordinates. */
const UNKNOWN = { latitude: null, longitude: null, locationText: 'Hafnarfjordur' };

/**
 * Issue 25: "Discover shows Iceland to a New Yorker with a 50 km limit". A member whose place is
 * unknown passed every distance filter; now they are never suggested to a member with a place.
 */
describe('Discover of a New Yorker with the default 50 km (real PostgreSQL)', () => {
  let bed: MatchingTestBed;

  beforeAll(async () => {
    bed = await startMatchingTestBed('matching_unknown_place');
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('shows the Brooklyn member, never the one in Reykjavik nor the one of unknown place, both ways', async () => {
    expect(DEFAULT_MAX_DISTANCE_KM).toBe(50);
    const newYorker = await bed.member(NEW_YORK);
    const brooklyn = await bed.member(BROOKLYN, { maxDistance: 200 });
    const reykjavik = await bed.member(REYKJAVIK, { maxDistance: 200 });
    const unknown = await bed.member(UNKNOWN, { maxDistance: 200 });

    expect(await bed.suggestedTo(newYorker)).toEqual([brooklyn.userId]);
    const [card] = await bed.suggestions(newYorker);
    expect(card).toMatchObject({ user: { id: brooklyn.userId }, distance: expect.stringMatching(/km|city/) });

    // The member of unknown place meets only members whose place is unknown too: none here.
    expect(await bed.suggestedTo(unknown)).toEqual([]);
    expect(await bed.suggestedTo(reykjavik)).toEqual([]);
    expect(await bed.suggestedTo(brooklyn)).toEqual([newYorker.userId]);

    // Once the place is found (the member picked it, or profile-service's backfill found it), they meet.
    await bed.updateProfile(unknown.userId, { ...BROOKLYN });
    expect((await bed.suggestedTo(newYorker)).sort()).toEqual([brooklyn.userId, unknown.userId].sort());
  });
});
