import { MatchingMessages } from '@mate/contracts';
import {
  startMatchingTestBed,
  type MatchingTestBed,
  type PreferenceFields,
  type ProfileFields,
} from '../../__tests__/matching-test-bed';

/**
 * One hard rule: preferences a chooser sets, and profiles of the other member that meet them,
 * miss them, or leave the field unanswered (which must fail a set filter).
 */
interface Rule {
  name: string;
  preferences: Partial<PreferenceFields>;
  fits: Partial<ProfileFields>[];
  fails: Partial<ProfileFields>[];
}

const RULES: Rule[] = [
  {
    name: 'age range',
    preferences: { minAge: 25, maxAge: 35 },
    fits: [{ age: 25 }, { age: 35 }],
    fails: [{ age: 24 }, { age: 36 }, { age: null }],
  },
  {
    name: 'gender (profile reading)',
    preferences: { genderPreference: ['female', 'non-binary'] },
    fits: [{ gender: 'female' }, { gender: 'non-binary' }],
    fails: [{ gender: 'male' }, { gender: 'other' }, { gender: null }],
  },
  {
    name: 'gender (onboarding reading on either side)',
    preferences: { genderPreference: ['prefer-not-to-say'] },
    fits: [{ gender: 'other' }, { gender: 'prefer-not-to-say' }],
    fails: [{ gender: 'female' }, { gender: null }],
  },
  {
    name: 'education',
    preferences: { educationPreference: ['master', 'doctorate'] },
    fits: [{ education: "Master's Degree" }, { education: 'doctorate' }],
    fails: [{ education: 'High School' }, { education: 'Clown college' }, { education: null }],
  },
  {
    name: 'relationship goals',
    preferences: { relationshipGoalPreference: ['marriage'] },
    fits: [{ lookingFor: 'relationship' }, { lookingFor: 'long-term' }],
    fails: [{ lookingFor: 'casual' }, { lookingFor: 'friendship' }, { lookingFor: null }],
  },
  {
    name: 'smoking',
    preferences: { smokingPreference: ['never'] },
    fits: [{ smoking: 'never' }],
    fails: [{ smoking: 'regularly' }, { smoking: null }],
  },
  {
    name: 'drinking',
    preferences: { drinkingPreference: ['never', 'socially'] },
    fits: [{ drinking: 'socially' }],
    fails: [{ drinking: 'regularly' }, { drinking: null }],
  },
  {
    name: 'exercise',
    preferences: { exercisePreference: ['daily'] },
    fits: [{ exercise: 'daily' }],
    fails: [{ exercise: 'never' }, { exercise: null }],
  },
  {
    name: 'pets',
    preferences: { petsPreference: ['cat', 'none'] },
    fits: [{ pets: 'none' }],
    fails: [{ pets: 'dog' }, { pets: null }],
  },
  // The index checks a list filter as the range of its option codes (candidate.repository.ts); a list
  // with a gap, or goals spanning others, must still let through only what the list holds.
  {
    name: 'smoking, a list with a gap',
    preferences: { smokingPreference: ['never', 'regularly'] },
    fits: [{ smoking: 'never' }, { smoking: 'regularly' }],
    fails: [{ smoking: 'socially' }, { smoking: 'prefer_not_to_say' }, { smoking: null }],
  },
  {
    name: 'relationship goals around others',
    preferences: { relationshipGoalPreference: ['casual', 'not_sure'] },
    fits: [{ lookingFor: 'casual' }, { lookingFor: 'not-sure' }],
    fails: [{ lookingFor: 'friendship' }, { lookingFor: 'relationship' }, { lookingFor: null }],
  },
  {
    name: 'required interests',
    preferences: { requiredInterests: ['Hiking', 'Music'] },
    fits: [{ interests: ['Music', 'Hiking', 'Art'] }],
    fails: [{ interests: ['Hiking'] }, { interests: [] }],
  },
  {
    name: 'height range',
    preferences: { minHeight: 170, maxHeight: 185 },
    fits: [{ height: 170 }, { height: 185 }],
    fails: [{ height: 169 }, { height: 186 }, { height: null }],
  },
  {
    name: 'minimum height alone',
    preferences: { minHeight: 180 },
    fits: [{ height: 190 }],
    fails: [{ height: 175 }, { height: null }],
  },
  {
    name: 'maximum height alone',
    preferences: { maxHeight: 175 },
    fits: [{ height: 160 }],
    fails: [{ height: 180 }, { height: null }],
  },
];

describe('hard rules of the candidate pool, both ways (real PostgreSQL)', () => {
  let bed: MatchingTestBed;

  beforeAll(async () => {
    bed = await startMatchingTestBed('matching_rules');
  });

  afterAll(async () => {
    await bed?.close();
  });

  describe.each(RULES)('$name', ({ preferences, fits, fails }) => {
    it('the chooser sees exactly the members who meet it, and may like only them', async () => {
      const place = bed.place();
      const chooser = await bed.member(place, preferences);
      const fitting = await Promise.all(fits.map((p) => bed.member({ ...place, ...p })));
      const failing = await Promise.all(fails.map((p) => bed.member({ ...place, ...p })));

      const seen = await bed.suggestedTo(chooser);
      expect(seen.sort()).toEqual(fitting.map((m) => m.userId).sort());
      for (const m of failing) {
        const res = await bed.call('POST', `/api/matches/like/${m.userId}`, { token: chooser.token });
        expect(res).toMatchObject({ status: 400, body: { error: MatchingMessages.notSuggestible } });
      }
    });

    it('a member who misses it does not see the chooser, and may not like them', async () => {
      const place = bed.place();
      const chooser = await bed.member(place, preferences);
      for (const p of fits) {
        const member = await bed.member({ ...place, ...p });
        expect(await bed.suggestedTo(member)).toContain(chooser.userId);
      }
      for (const p of fails) {
        const member = await bed.member({ ...place, ...p });
        expect(await bed.suggestedTo(member)).not.toContain(chooser.userId);
        const res = await bed.call('POST', `/api/matches/like/${chooser.userId}`, { token: member.token });
        expect(res).toMatchObject({ status: 400, body: { error: MatchingMessages.notSuggestible } });
      }
    });
  });

  it('an unknown age passes only the default age range', async () => {
    const place = bed.place();
    const ageless = await bed.member({ ...place, age: null });
    const open = await bed.member(place);
    const narrow = await bed.member(place, { minAge: 18, maxAge: 98 });
    expect(await bed.suggestedTo(open)).toContain(ageless.userId);
    expect(await bed.suggestedTo(narrow)).not.toContain(ageless.userId);
    expect(await bed.suggestedTo(ageless)).toEqual([open.userId]);
  });

  it('each side’s maximum distance between city centres; members of no known place meet only each other', async () => {
    const here = bed.place();
    const near = bed.north(here, 30);
    const far = bed.north(here, 120);
    // Aged 61, so that the members of no place can look only at them.
    const viewer = await bed.member({ ...here, age: 61 }, { maxDistance: 50 });
    const nearby = await bed.member({ ...near, age: 61 }, { maxDistance: 200 });
    const farAndWilling = await bed.member({ ...far, age: 61 }, { maxDistance: 200 });
    const nearButUnwilling = await bed.member({ ...near, age: 61 }, { maxDistance: 20 });
    const nowhere = { latitude: null, longitude: null, locationText: 'Atlantis' };
    const placeless = await bed.member({ ...nowhere, age: 61 }, { minAge: 61, maxAge: 61 });
    const otherPlaceless = await bed.member({ ...nowhere, age: 61 }, { minAge: 61, maxAge: 61 });
    const seen = await bed.suggestedTo(viewer);
    expect(seen).toContain(nearby.userId);
    expect(seen).not.toContain(placeless.userId);
    expect(seen).not.toContain(farAndWilling.userId);
    expect(seen).not.toContain(nearButUnwilling.userId);
    expect(await bed.suggestedTo(farAndWilling)).not.toContain(viewer.userId);
    expect(await bed.suggestedTo(nearButUnwilling)).not.toContain(viewer.userId);
    expect(await bed.suggestedTo(nearby)).toContain(viewer.userId);
    expect(await bed.suggestedTo(placeless)).toEqual([otherPlaceless.userId]);
    for (const [from, to] of [
      [viewer, farAndWilling],
      [viewer, placeless],
      [placeless, viewer],
    ]) {
      const res = await bed.call('POST', `/api/matches/like/${to.userId}`, { token: from.token });
      expect(res).toMatchObject({ status: 400, body: { error: MatchingMessages.notSuggestible } });
    }
    // The members of no place are retired so the later tests' pools stay their own.
    await bed.updateProfile(placeless.userId, { onboardingCompleted: false });
    await bed.updateProfile(otherPlaceless.userId, { onboardingCompleted: false });
  });

  it('never suggests oneself or members who are not suggestible, and refuses to like them', async () => {
    const place = bed.place();
    const viewer = await bed.member(place);
    const unverified = await bed.member({ ...place, isVerified: false });
    const notOnboarded = await bed.member({ ...place, onboardingCompleted: false });
    const noPhoto = await bed.member({ ...place, hasPhoto: false, photos: [], profilePicture: null });
    const fine = await bed.member(place);
    expect(await bed.suggestedTo(viewer)).toEqual([fine.userId]);
    for (const m of [unverified, notOnboarded, noPhoto]) {
      const res = await bed.call('POST', `/api/matches/like/${m.userId}`, { token: viewer.token });
      expect(res).toMatchObject({ status: 400, body: { error: MatchingMessages.notSuggestible } });
    }
    const self = await bed.call('POST', `/api/matches/like/${viewer.userId}`, { token: viewer.token });
    expect(self).toMatchObject({ status: 400, body: { error: MatchingMessages.likeSelf } });
  });
});
