import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { lockMembersAgainstErasure } from '@mate/server-kit';
import type { EmailTemplate } from '@mate/contracts';
import type { EmailDelivery } from './email-delivery.entity';

const MAX_ERROR_LENGTH = 500;

export interface DeliveryAttempt {
  jobKey: string;
  template: EmailTemplate;
  to: string;
  /** The account the email is about, when the job named one. */
  userId: string | null;
  attempt: number;
}

/** What starting an attempt found: the row to log it in, or why there is nothing to send. */
export type AttemptStart = { id: string } | 'already-sent' | 'member-erased';

/** The SQL of the delivery log. */
@Injectable()
export class EmailDeliveryRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records that an attempt starts and returns the row id; 'already-sent' when this job was sent
   * before (a redelivered job after a crash between SMTP and the acknowledgement); 'member-erased'
   * when the account it is about was deleted meanwhile (nothing is sent or logged). The member's
   * erasure lock orders it with the erasure (docs/adr/0016-member-data.md).
   */
  async startAttempt(a: DeliveryAttempt): Promise<AttemptStart> {
    return this.dataSource.transaction(async (manager) => {
      if (a.userId && (await lockMembersAgainstErasure(manager, [a.userId]))) return 'member-erased';
      const rows: { id: string }[] = await manager.query(
        `INSERT INTO email_delivery (job_key, template, "to", user_id, status, attempts)
         VALUES ($1, $2, $3, $4, 'sending', $5)
         ON CONFLICT (job_key) DO UPDATE SET status = 'sending', attempts = EXCLUDED.attempts
         WHERE email_delivery.status <> 'sent'
         RETURNING id`,
        [a.jobKey, a.template, a.to, a.userId, a.attempt],
      );
      return rows[0] ? { id: rows[0].id } : 'already-sent';
    });
  }

  /** The emails about a member, oldest first (their export). */
  async findByMember(userId: string): Promise<EmailDelivery[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      'SELECT * FROM email_delivery WHERE user_id = $1 ORDER BY created_at',
      [userId],
    );
    return rows.map(toDelivery);
  }

  /** `user.deleted`: the emails about the member go (inside the erasure's transaction). */
  async eraseMember(manager: EntityManager, userId: string): Promise<void> {
    await manager.query('DELETE FROM email_delivery WHERE user_id = $1', [userId]);
  }

  async markSent(id: string): Promise<void> {
    await this.dataSource.query(`UPDATE email_delivery SET status = 'sent', sent_at = now() WHERE id = $1`, [
      id,
    ]);
  }

  async markFailed(id: string, error: string, final: boolean): Promise<void> {
    await this.dataSource.query(`UPDATE email_delivery SET status = $2, last_error = $3 WHERE id = $1`, [
      id,
      final ? 'failed' : 'retrying',
      error.slice(0, MAX_ERROR_LENGTH),
    ]);
  }

  async findByJobKey(jobKey: string): Promise<EmailDelivery | null> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      'SELECT * FROM email_delivery WHERE job_key = $1',
      [jobKey],
    );
    return rows[0] ? toDelivery(rows[0]) : null;
  }

  async findByRecipient(to: string): Promise<EmailDelivery[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      'SELECT * FROM email_delivery WHERE lower("to") = lower($1) ORDER BY created_at',
      [to],
    );
    return rows.map(toDelivery);
  }
}

function toDelivery(row: Record<string, unknown>): EmailDelivery {
  return {
    id: row.id as string,
    jobKey: row.job_key as string,
    template: row.template as EmailTemplate,
    to: row.to as string,
    userId: (row.user_id as string | null) ?? null,
    status: row.status as EmailDelivery['status'],
    attempts: row.attempts as number,
    lastError: (row.last_error as string | null) ?? null,
    createdAt: row.created_at as Date,
    sentAt: (row.sent_at as Date | null) ?? null,
  };
}
