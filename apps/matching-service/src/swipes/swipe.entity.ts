import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A member's like or pass on another, at most one per pair and direction. The candidate query
 * anti-joins on the primary key so a swiped member never comes back; a rewind deletes a pass.
 */
@Entity({ name: 'swipe' })
@Index('swipe_swiper_recent_idx', ['swiperId', 'createdAt'])
export class Swipe {
  @PrimaryColumn({ name: 'swiper_id', type: 'uuid' })
  swiperId!: string;

  @PrimaryColumn({ name: 'target_id', type: 'uuid' })
  targetId!: string;

  @Column({ type: 'boolean' })
  liked!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
