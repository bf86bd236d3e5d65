import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What a model learned about one member: taste (what they like) and appeal (what others like in
 * them) factors, and the like counts behind their propensity and appeal terms.
 */
@Entity({ name: 'member_factor' })
export class MemberFactor {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  /** The scoring_model version these values belong to. */
  @Column({ name: 'model_version', type: 'varchar', length: 40 })
  modelVersion!: string;

  @Column({ type: 'real', array: true })
  taste!: number[];

  @Column({ type: 'real', array: true })
  appeal!: number[];

  @Column({ name: 'likes_given', type: 'int' })
  likesGiven!: number;

  @Column({ name: 'swipes_given', type: 'int' })
  swipesGiven!: number;

  @Column({ name: 'likes_received', type: 'int' })
  likesReceived!: number;

  @Column({ name: 'swipes_received', type: 'int' })
  swipesReceived!: number;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
