/** Types of taste.cjs (the hidden-taste generator): see the comments there. */
export interface TasteMember {
  userId: string;
  age: number | null;
  interests: readonly string[];
  goals: readonly string[];
  lat: number | null;
  lng: number | null;
  smoking: string | null;
  drinking: string | null;
  exercise: string | null;
  pets: string | null;
  minAge: number;
  maxAge: number;
}

export interface Taste {
  typeWeights: number[];
  pickiness: number;
  interestWeight: number;
  idealAge: number;
  ageWeight: number;
  distanceWeight: number;
  goalsWeight: number;
  lifestyleWeight: number;
}

export declare const TYPE_DIM: number;

export declare class HiddenTastes {
  constructor(seed: string | number);
  readonly seed: string;
  typeOf(userId: string): number[];
  tasteOf(member: TasteMember): Taste;
  likeProbability(a: TasteMember, b: TasteMember): number;
  likes(a: TasteMember, b: TasteMember): boolean;
  swipe(member: TasteMember, candidates: readonly TasteMember[]): { targetId: string; liked: boolean }[];
}
