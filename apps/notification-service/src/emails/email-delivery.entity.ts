import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { EmailTemplate } from '@mate/contracts';

/**
 * 'sending' while an attempt is under way, 'retrying' after a failed attempt that BullMQ will
 * repeat, 'sent' once the SMTP server accepted it, 'failed' when no attempt is left.
 */
export type EmailDeliveryStatus = 'sending' | 'retrying' | 'sent' | 'failed';

/** A row per email job: what was sent to whom and how it went. Never the body, link or token. */
@Entity({ name: 'email_delivery' })
export class EmailDelivery {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** The job's id and creation time: unique even if a queue's id counter starts over. */
  @Column({ name: 'job_key', type: 'varchar', length: 200 })
  jobKey!: string;

  @Column({ type: 'varchar', length: 50 })
  template!: EmailTemplate;

  @Column({ type: 'varchar', length: 254 })
  to!: string;

  /** The account the email is about, when its job named one (issue 12: export and erasure). */
  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId!: string | null;

  @Column({ type: 'varchar', length: 20 })
  status!: EmailDeliveryStatus;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;
}
