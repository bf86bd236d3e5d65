import type { PushPayload } from './notifications';

/**
 * Jobs (ARCHITECTURE §2.2): work owned by one service. Queue names never change once shipped.
 */
export enum QueueName {
  Email = 'jobs.email',
  /** matching-service refits its scoring model (a job scheduler makes one job per tick, ARCHITECTURE §5). */
  MatchingRefit = 'jobs.matching-refit',
  /**
   * safety-service fills a report's message snapshot that chat-service could not give when the
   * report was made (down or slow); retried with backoff until it succeeds (ADR 0014).
   */
  SafetyEvidence = 'jobs.safety-evidence',
  /**
   * auth-service carries out an admin's command on an account (suspend, unsuspend, delete;
   * issue 13): admin-service writes it to its outbox in the transaction of the audit entry.
   */
  AccountAdmin = 'jobs.account-admin',
  /** notification-service sends one web push to every device of a member (issue 12, ADR 0017). */
  Push = 'jobs.push',
  /**
   * profile-service scores a freshly stored photo with the offline classifier (nsfwjs, issue 13):
   * written to its outbox in the upload's transaction, so every photo is scored exactly once.
   */
  PhotoScan = 'jobs.photo-scan',
  /** profile-service carries out an admin's photo decision (approve, reject; issue 13). */
  PhotoAdmin = 'jobs.photo-admin',
  /** safety-service carries out an admin's report resolution (issue 13). */
  ReportAdmin = 'jobs.report-admin',
}

export type EmailTemplate =
  | 'verify-email'
  | 'reset-password'
  | 'email-change'
  /** To the current address when a change is requested: names the new address, links to the cancellation. */
  | 'email-change-requested'
  | 'email-changed-notice';

export interface EmailJobData {
  template: EmailTemplate;
  to: string;
  /**
   * The account the email is about, when there is one (issue 12): notification-service records it
   * with the delivery so a member's export lists their emails and their deletion erases them.
   * Optional and additive: jobs written before it carry none.
   */
  userId?: string;
  /** Display name for the greeting, when known. */
  name: string | null;
  /** The link the email carries (already absolute), when the template has one. */
  link?: string;
  /** Extra values a template shows (for example the new address of an email change). */
  vars?: Record<string, string>;
}

/**
 * The report whose message snapshot is still pending; or `{ sweep: true }`, the scheduled pass
 * that retries every report still pending (one whose own job ran out of attempts while chat was
 * away for long).
 */
export type SafetyEvidenceJobData = { reportId: string } | { sweep: true };

/**
 * `jobs.push`: one push to one device (retried with backoff, dropped with its subscription on
 * 404/410), or the end of a conversation's collapse window (the burst's messages become one push).
 */
export type PushJobData =
  | { kind: 'send'; subscriptionId: string; payload: PushPayload }
  | { kind: 'message-burst'; recipientId: string; senderId: string };

/** An admin's command on an account, carried out by auth-service (idempotent: the same job twice does it once). */
export type AccountAdminCommand =
  | { kind: 'suspend'; userId: string; reason: string; adminId: string }
  | { kind: 'unsuspend'; userId: string; adminId: string }
  | { kind: 'delete'; userId: string; adminId: string };

/** `jobs.photo-scan`: score one photo (a photo already scored, rejected or gone is left alone). */
export interface PhotoScanJobData {
  photoId: string;
}

/**
 * An admin's decision on a photo, carried out by profile-service (idempotent; only a pending photo
 * moves). Reject hides the photo everywhere, deletes its files and tells the owner.
 */
export type PhotoAdminCommand =
  | { kind: 'approve'; photoId: string; adminId: string }
  | { kind: 'reject'; photoId: string; reason: string; adminId: string };

/** An admin's resolution of a report, carried out by safety-service (only a pending report moves). */
export interface ReportAdminCommand {
  kind: 'resolve';
  reportId: string;
  status: 'reviewed' | 'dismissed';
  resolution: string | null;
  adminId: string;
}

export interface JobPayloads {
  [QueueName.Email]: EmailJobData;
  /** A refit needs nothing but the tick: it reads the recent swipes itself. */
  [QueueName.MatchingRefit]: Record<string, never>;
  [QueueName.SafetyEvidence]: SafetyEvidenceJobData;
  [QueueName.Push]: PushJobData;
  [QueueName.AccountAdmin]: AccountAdminCommand;
  [QueueName.PhotoScan]: PhotoScanJobData;
  [QueueName.PhotoAdmin]: PhotoAdminCommand;
  [QueueName.ReportAdmin]: ReportAdminCommand;
}

/**
 * What travels in a job's data: the payload with the request that caused it, so the worker logs
 * its handling under that request id. The job's id is the outbox row's id; a re-added job keeps it.
 */
export interface JobEnvelope<Q extends QueueName = QueueName> {
  id: string;
  queue: Q;
  requestId?: string;
  createdAt: string;
  data: JobPayloads[Q];
}

/**
 * The prefix of a BullMQ queue's keys (`<prefix>:<queue>:<kind>`). On a Redis Cluster every key of
 * one queue must share a slot (BullMQ's Lua scripts touch several): the prefix carries a hash tag
 * per queue, `{<KEY_PREFIX>:<queue>}`. On one server it stays `<KEY_PREFIX>`, as before: jobs
 * queued by a replica of the previous release stay where this one looks (ADR 0032). The kit's
 * `queuePrefixOf` reads it from a service's env; a client outside the services (the e2e journeys)
 * uses it as is.
 */
export function queuePrefix(keyPrefix: string, queue: string, cluster: boolean): string {
  return cluster ? `{${keyPrefix}:${queue}}` : keyPrefix;
}
