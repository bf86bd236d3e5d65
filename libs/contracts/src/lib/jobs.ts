/**
 * Jobs (ARCHITECTURE §2.2): work owned by one service. Queue names never change once shipped.
 */
export enum QueueName {
  Email = 'jobs.email',
}

export type EmailTemplate = 'verify-email' | 'reset-password' | 'email-change' | 'email-changed-notice';

export interface EmailJobData {
  template: EmailTemplate;
  to: string;
  /** Display name for the greeting, when known. */
  name: string | null;
  /** The link the email carries (already absolute), when the template has one. */
  link?: string;
  /** Extra values a template shows (for example the new address of an email change). */
  vars?: Record<string, string>;
}

export interface JobPayloads {
  [QueueName.Email]: EmailJobData;
}
