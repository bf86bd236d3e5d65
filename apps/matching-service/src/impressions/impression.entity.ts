import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Who was shown whom: one row per viewer and member shown, with the latest serving's time, score
 * and model version (a reload moves them forward). Exposure counts the viewers a member was shown
 * to lately, each once, so no single viewer can inflate it (ADR 0012, "Security review").
 */
@Entity({ name: 'impression' })
@Index('impression_viewer_target_key', ['viewerId', 'targetId'], { unique: true })
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
