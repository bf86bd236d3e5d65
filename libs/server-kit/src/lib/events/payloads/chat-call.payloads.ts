import { Min } from 'class-validator';
import type { CallEndedPayload, MessageSentPayload } from '@mate/contracts';
import { Amount, Count, Flag, Id, OneOf, Time } from './payload-fields';

/** `message.sent` (chat-service): a fact about a stored message, never its content. */
export class MessageSentEvent implements MessageSentPayload {
  @Id() messageId!: string;
  @Id() conversationId!: string;
  @Id() senderId!: string;
  @Id() recipientId!: string;
  @Count() seq!: number;
  @Count() length!: number;
  @Flag() first!: boolean;
  @Time() sentAt!: string;
}

/** `call.ended` (call-service): 0 seconds for a call never answered. */
export class CallEndedEvent implements CallEndedPayload {
  @Id() callId!: string;
  @Id() callerId!: string;
  @Id() calleeId!: string;
  @OneOf(['completed', 'missed', 'rejected', 'failed']) status!:
    | 'completed'
    | 'missed'
    | 'rejected'
    | 'failed';
  @Amount() @Min(0) durationSeconds!: number;
  @Time() endedAt!: string;
}
