import type { DrinkingValue, ExerciseValue, PetsValue, SmokingValue } from '@mate/contracts';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A member's profile (spec 000 §3): one per user, created when auth-service reports the account. */
@Entity({ name: 'profiles' })
export class Profile {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'user_id', type: 'uuid', unique: true })
  userId!: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  name!: string | null;

  @Column({ type: 'int', nullable: true })
  age!: number | null;

  @Column({ type: 'varchar', length: 30, nullable: true })
  gender!: string | null;

  @Column({ type: 'text', nullable: true })
  bio!: string | null;

  /** Free text "City, State/Country". */
  @Column({ type: 'varchar', length: 200, nullable: true })
  location!: string | null;

  /**
   * Coordinates of the location, found offline (geocoding). PRIVATE: they go to services in
   * profile.updated, never into a response a member reads.
   */
  @Column({ name: 'location_lat', type: 'double precision', nullable: true })
  locationLat!: number | null;

  @Column({ name: 'location_lng', type: 'double precision', nullable: true })
  locationLng!: number | null;

  /** null without a location; false when the place is unknown (distance matching is off). */
  @Column({ name: 'location_resolved', type: 'boolean', nullable: true })
  locationResolved!: boolean | null;

  /** Centimetres. */
  @Column({ type: 'int', nullable: true })
  height!: number | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  occupation!: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  education!: string | null;

  @Column({ name: 'looking_for', type: 'varchar', length: 30, nullable: true })
  lookingFor!: string | null;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  interests!: string[];

  /** Lifestyle (issue 8): stored values of spec 001 §3 (checked by the table too); null = not said. */
  @Column({ type: 'varchar', length: 30, nullable: true })
  smoking!: SmokingValue | null;

  @Column({ type: 'varchar', length: 30, nullable: true })
  drinking!: DrinkingValue | null;

  @Column({ type: 'varchar', length: 30, nullable: true })
  exercise!: ExerciseValue | null;

  @Column({ type: 'varchar', length: 30, nullable: true })
  pets!: PetsValue | null;

  @Column({ name: 'is_verified', type: 'boolean', default: false })
  isVerified!: boolean;

  @Column({ name: 'onboarding_completed', type: 'boolean', default: false })
  onboardingCompleted!: boolean;

  /** Onboarding was skipped: completing it later still counts (and publishes) as completed. */
  @Column({ name: 'onboarding_skipped', type: 'boolean', default: false })
  onboardingSkipped!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
