import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { EmailTemplate } from '@mate/contracts';
import type { EmailDelivery } from './email-delivery.entity';

const MAX_ERROR_LENGTH = 500;

export interface DeliveryAttempt {
  jobKey: string;
  template: EmailTemplate;
  to: string;
  attempt: number;
}

/** The SQL of the delivery log. */
@Injectable()
export class EmailDeliveryRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records that an attempt starts and returns the row id, or null when this job was already
   * sent (a redelivered job after a crash between SMTP and the acknowledgement).
   */
  async startAttempt(a: DeliveryAttempt): Promise<string | null> {
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO email_delivery (job_key, template, "to", status, attempts)
       VALUES ($1, $2, $3, 'sending', $4)
       ON CONFLICT (job_key) DO UPDATE SET status = 'sending', attempts = EXCLUDED.attempts
       WHERE email_delivery.status <> 'sent'
       RETURNING id`,
      [a.jobKey, a.template, a.to, a.attempt],
    );
    return rows[0]?.id ?? null;
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
    status: row.status as EmailDelivery['status'],
    attempts: row.attempts as number,
    lastError: (row.last_error as string | null) ?? null,
    createdAt: row.created_at as Date,
    sentAt: (row.sent_at as Date | null) ?? null,
  };
}
