import { QueueName, type PushJobData } from '@mate/contracts';

/**
 * The push job queue (the contracts' job catalogue, `QueueName.Push`): only notification-service
 * produces and works it, adding jobs directly (job ids made of the event id, see push-queue.ts).
 */
export const PUSH_QUEUE = QueueName.Push;

export type PushJob = PushJobData;
/** One push to one device; retried with backoff, dropped with its subscription on 404/410. */
export type SendPushJob = Extract<PushJobData, { kind: 'send' }>;
/** The end of a conversation's collapse window: the burst's messages become one push. */
export type MessageBurstJob = Extract<PushJobData, { kind: 'message-burst' }>;
