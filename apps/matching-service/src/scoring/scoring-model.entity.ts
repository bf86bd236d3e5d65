import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { FitMetrics, ModelParams } from '@mate/matching-model';

/** One fitted model: its parameters as JSON and how it did on held-out swipes. The newest is active. */
@Entity({ name: 'scoring_model' })
export class ScoringModelRow {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  version!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Swipes the fit learned from. */
  @Column({ name: 'trained_on', type: 'int' })
  trainedOn!: number;

  @Column({ type: 'jsonb' })
  params!: ModelParams;

  @Column({ type: 'jsonb' })
  metrics!: FitMetrics;
}
