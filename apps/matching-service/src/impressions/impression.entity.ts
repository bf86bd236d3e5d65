import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One suggestion served: who saw whom, with which score and model version. Scoring learns from
 * impressions followed (or not) by swipes, and the exposure benchmark measures their spread.
 */
@Entity({ name: 'impression' })
export class Impression {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'viewer_id', type: 'uuid' })
  viewerId!: string;

  @Column({ name: 'target_id', type: 'uuid' })
  targetId!: string;

  /** The reciprocal score, 0..1. */
  @Column({ type: 'real' })
  score!: number;

  @Column({ name: 'model_version', type: 'varchar', length: 40 })
  modelVersion!: string;

  @Column({ name: 'served_at', type: 'timestamptz', default: () => 'now()' })
  servedAt!: Date;
}
