/**
 * What the scoring model reads of a member: the candidate row's profile and preference columns
 * (schema: the `candidate` table), so the model stays plain TypeScript that the refit job, the
 * service and the matching-quality bench share. H1's Candidate entity has these properties.
 */
export interface ScoringProfile {
  userId: string;
  age: number | null;
  /** The interested-in reading of the member's gender (male|female|non-binary|other). */
  genderGroup: string | null;
  /** Relationship goals (relationshipGoalsOf(lookingFor)). */
  goals: readonly string[];
  interests: readonly string[];
  height: number | null;
  educationValue: string | null;
  smoking: string | null;
  drinking: string | null;
  exercise: string | null;
  pets: string | null;
  lat: number | null;
  lng: number | null;
  photos: readonly unknown[];
  minAge: number;
  maxAge: number;
  maxDistance: number;
  minHeight: number | null;
  maxHeight: number | null;
  /** Preferences' `interests`: a soft signal of what the member hopes to find. */
  preferredInterests: readonly string[];
}

/**
 * What the model learned about one member from swipes: their taste and appeal factors (the
 * collaborative part; empty for a newcomer) and their like counts, given and received.
 */
export interface MemberStats {
  taste: readonly number[];
  appeal: readonly number[];
  likesGiven: number;
  swipesGiven: number;
  likesReceived: number;
  swipesReceived: number;
}

/** A member nobody has fitted yet: no factors, no swipes (the population prior applies). */
export const NEWCOMER: MemberStats = {
  taste: [],
  appeal: [],
  likesGiven: 0,
  swipesGiven: 0,
  likesReceived: 0,
  swipesReceived: 0,
};

/** One recorded swipe: did `swiperId` like `targetId`. */
export interface SwipeRecord {
  swiperId: string;
  targetId: string;
  liked: boolean;
}
