import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** `email_change_cancel`: the link the current address gets to call a pending change off. */
export type AuthTokenKind = 'verify_email' | 'reset_password' | 'email_change' | 'email_change_cancel';

/** A one-time link token. Only its SHA-256 is stored; using it stamps `used_at`. */
@Entity({ name: 'auth_tokens' })
export class AuthToken {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'varchar', length: 20 })
  kind!: AuthTokenKind;

  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ name: 'new_email', type: 'varchar', length: 254, nullable: true })
  newEmail!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
