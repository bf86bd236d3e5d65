import { CreateDateColumn, Entity, PrimaryGeneratedColumn, Column, Unique } from 'typeorm';

/**
 * Two members who liked each other, stored once per pair with `userA < userB` (the table checks
 * it), so concurrent mutual likes meet on the unique pair and make exactly one match.
 */
@Entity({ name: 'match' })
@Unique('match_pair_key', ['userA', 'userB'])
export class Match {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'user_a', type: 'uuid' })
  userA!: string;

  @Column({ name: 'user_b', type: 'uuid' })
  userB!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
