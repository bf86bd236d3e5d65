import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A sign-in on one device. Liveness (and last activity) lives in Redis; this row is the record. */
@Entity({ name: 'sessions' })
export class Session {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'device_info', type: 'varchar', length: 255 })
  deviceInfo!: string;

  @Column({ name: 'ip_address', type: 'varchar', length: 64, nullable: true })
  ipAddress!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
