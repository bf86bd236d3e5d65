import type { PushPayload } from '@mate/contracts';

/**
 * The push job queue. Its name lives here until the catalogue of job queues
 * (libs/contracts/src/lib/jobs.ts) takes it: only notification-service produces and works it.
 */
export const PUSH_QUEUE = 'jobs.push';

/** One push to one device; retried with backoff, dropped with its subscription on 404/410. */
export interface SendPushJob {
  kind: 'send';
  subscriptionId: string;
  payload: PushPayload;
}

/** The end of a conversation's collapse window: the burst's messages become one push. */
export interface MessageBurstJob {
  kind: 'message-burst';
  recipientId: string;
  senderId: string;
}

export type PushJob = SendPushJob | MessageBurstJob;
