import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

const list = (name: string) => ({ name, type: 'text' as const, array: true, default: () => "'{}'" });

/**
 * One row per member holding both preference sets of the spec: the match preferences
 * (000 §3: ages, distance, genders, interests, dealbreakers) and the filter preferences (001 §3).
 * The two share minAge, maxAge, maxDistance and genderPreference: one value each, whichever
 * screen saved it last. No row means the defaults.
 */
@Entity({ name: 'preferences' })
export class Preferences {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'min_age', type: 'int' })
  minAge!: number;

  @Column({ name: 'max_age', type: 'int' })
  maxAge!: number;

  /** Kilometres. */
  @Column({ name: 'max_distance', type: 'int' })
  maxDistance!: number;

  @Column(list('gender_preference'))
  genderPreference!: string[];

  @Column(list('interests'))
  interests!: string[];

  @Column(list('dealbreakers'))
  dealbreakers!: string[];

  @Column({ name: 'min_height', type: 'int', nullable: true })
  minHeight!: number | null;

  @Column({ name: 'max_height', type: 'int', nullable: true })
  maxHeight!: number | null;

  @Column(list('education_preference'))
  educationPreference!: string[];

  @Column(list('relationship_goal_preference'))
  relationshipGoalPreference!: string[];

  @Column(list('smoking_preference'))
  smokingPreference!: string[];

  @Column(list('drinking_preference'))
  drinkingPreference!: string[];

  @Column(list('exercise_preference'))
  exercisePreference!: string[];

  @Column(list('pets_preference'))
  petsPreference!: string[];

  @Column(list('required_interests'))
  requiredInterests!: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** Every stored preference, without the row's bookkeeping. */
export type PreferenceValues = Omit<Preferences, 'userId' | 'createdAt' | 'updatedAt'>;
