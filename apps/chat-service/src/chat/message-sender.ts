import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  ChatErrorCode,
  ChatMessages,
  messageLength,
  normalizeMessageContent,
  orderedPairOf,
  type ChatMessageDto,
} from '@mate/contracts';
import {
  conflict,
  forbidden,
  OutboxService,
  PairGate,
  pairGateRefuses,
  ReadReplica,
  type SocketEventEntry,
} from '@mate/server-kit';
import { ChatNotifier } from './chat-notifier';
import { ConversationFromGate, refusedWith } from './conversation-from-gate';
import type { SendMessageDto } from './dto/chat-requests.dto';
import { MessageRepository, type MessageSentByStatement, type SendBatchItem, type SendBatchRow } from './message.repository';

/** A send on its way to the statement (its payload checked and counted by the kit: SendMessageDto, ChatRateLimiter). */
interface Draft {
  /** Its place among the handler's entries (its answer goes there). */
  index: number;
  senderId: string;
  recipientId: string;
  /** The ordered pair. */
  a: string;
  b: string;
  clientId: string;
  content: string;
  length: number;
  requestId: string;
  /** The pair gate's match was recorded for it once already (ADR 0029). */
  fromGate?: boolean;
}

/** What a send came to: its message, or the refusal (or failure) it is answered with. */
type Outcome = { message: ChatMessageDto } | { error: unknown };

/** A concurrent retry of one of the batch's client ids won the race this many times in a row: give up (503, retryable). */
const MAX_RACED_ATTEMPTS = 3;

const notMatched = refusedWith(ChatErrorCode.NotMatched);

/**
 * send_message (docs/adr/0013-chat-delivery.md), for every send of a delivery at once: the gateway
 * batches the socket events that queue while earlier ones are in flight, so under load one call
 * holds up to 64 sends of as many members. Each send is answered on its own (a refusal of one
 * never fails another), and every promise of a single send holds:
 *
 * - **stored before acknowledged**: the sends' rows, their conversations' moves and their outbox
 *   rows are one statement (SEND_BATCH_SQL, MessageRepository's) in one transaction; the answer
 *   and the pushes come after COMMIT;
 * - **per-conversation order**: the statement locks every conversation row it writes (in id order)
 *   and numbers a conversation's sends in the order they arrived;
 * - **clientId idempotency**: a retry answers the stored message (and is pushed again); a repeat of
 *   a client id within one batch goes in a later round, where it is exactly such a retry; a client
 *   id of another conversation is 409;
 * - **the pair gate** (ADR 0024) is read for the batch's new messages in one MGET after the
 *   statement (holding the row locks) and before COMMIT; when it refuses any, the transaction rolls
 *   back and runs again without them (they are answered 403), so nothing it refuses is stored;
 * - **a match the projection has not heard of yet** (ADR 0029): a send refused as not matched has
 *   the gate's match recorded and goes once more in the next round.
 *
 * Per batch: BEGIN + the statement + COMMIT on one connection, one MGET, and the pushes
 * (auto-pipelined XADDs). The members' rate limits are counted before, by the kit, in one Redis
 * round trip for the batch (`@CountedPerMember` on the handler).
 */
@Injectable()
export class MessageSender {
  constructor(
    private readonly messages: MessageRepository,
    private readonly outbox: OutboxService,
    private readonly notifier: ChatNotifier,
    private readonly gate: PairGate,
    private readonly fromGate: ConversationFromGate,
    private readonly reads: ReadReplica,
  ) {}

  /** One settled answer per entry, in order: the stored message, or why it was not stored. */
  async sendMany(
    entries: SocketEventEntry<SendMessageDto>[],
  ): Promise<PromiseSettledResult<ChatMessageDto>[]> {
    const outcomes: Outcome[] = new Array(entries.length);
    let pending = entries.map((entry, index) => draft(index, entry));
    while (pending.length > 0) {
      // The first send of each (sender, client id) goes now; a repeat waits for the next round,
      // where the first one is stored (or refused) and the repeat is answered as its retry.
      const seen = new Set<string>();
      const round: Draft[] = [];
      const later: Draft[] = [];
      for (const d of pending) {
        const key = `${d.senderId} ${d.clientId}`;
        (seen.has(key) ? later : round).push(d);
        seen.add(key);
      }
      const stored = await this.storeRound(round);
      const again = await Promise.all(
        round.map(async (d, i) => {
          const outcome = stored[i];
          // Refused as not matched: the gate may name a match that has not reached this projection.
          // A failing gate read answers the send 503 (retryable), as every gate read does.
          if ('error' in outcome && notMatched(outcome.error) && !d.fromGate) {
            d.fromGate = true;
            try {
              if (await this.fromGate.recordMatch(d.senderId, d.recipientId)) return d;
            } catch (error) {
              outcomes[d.index] = { error };
              return null;
            }
          }
          outcomes[d.index] = outcome;
          return null;
        }),
      );
      pending = [...again.filter((d): d is Draft => d !== null), ...later].sort((x, y) => x.index - y.index);
    }
    const stored = outcomes.flatMap((o) => ('message' in o ? [o.message] : []));
    // Before the answer and the pushes: both members' lists read the primary until the replica has
    // the message (ADR 0033; nothing without a replica).
    await this.reads.wrote(...new Set(stored.flatMap((m) => [m.senderId, m.recipientId])));
    // After the commit only: a pushed message is always a stored one. A retry pushes again (the
    // first push may be what was lost); clients keep each id once.
    await this.notifier.messages(stored);
    return outcomes.map((o) =>
      'message' in o ? { status: 'fulfilled', value: o.message } : { status: 'rejected', reason: o.error },
    );
  }

  /**
   * One round's sends (no two of one sender and client id) in one transaction. The statement runs
   * again when a concurrent retry raced one of its client ids, or without the sends the pair gate
   * refuses. A failure of the database or of Redis fails the round's every send (each answered 503
   * by the caller, retryable with its client id).
   */
  private async storeRound(round: Draft[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = new Array(round.length);
    const items = round.map((d, ord) => this.item(d, ord));
    let open = round.map((_, i) => i);
    try {
      for (let raced = 0; open.length > 0; ) {
        const rows = await this.messages.inSendTransaction<SendBatchRow[] | Set<number> | 'raced'>(
          async (tx) => {
            const rows = await tx.sendBatch(open.map((i) => items[i]));
            if (rows[0]?.raced) return { commit: false, value: 'raced' as const };
            const inserted = rows.filter((r) => r.seq !== null);
            const gates = await this.gate.readMany(
              inserted.map((r) => [items[r.ord].a, items[r.ord].b] as const),
            );
            const closed = new Set(
              inserted.filter((r, i) => pairGateRefuses(gates[i], r.match_pair_version)).map((r) => r.ord),
            );
            if (closed.size > 0) return { commit: false, value: closed };
            return { commit: true, value: rows };
          },
        );
        if (rows === 'raced') {
          if (++raced >= MAX_RACED_ATTEMPTS) throw new Error('send_message: client ids kept racing');
          continue;
        }
        if (rows instanceof Set) {
          // Refused as a closed conversation is: the sender learns no more than "not matched".
          for (const ord of rows) outcomes[ord] = { error: forbidden(ChatMessages.notMatched, ChatErrorCode.NotMatched) };
          open = open.filter((i) => !rows.has(i));
          continue;
        }
        for (const row of rows) outcomes[row.ord] = answer(round[row.ord], items[row.ord], row);
        open = [];
      }
    } catch (error) {
      // A statement refused for what one send holds (a data or constraint error: none is known,
      // every field is checked before) must not fail the others: each goes alone, in order.
      if (open.length > 1 && isDataError(error)) {
        for (const i of open) outcomes[i] = (await this.storeRound([round[i]]))[0];
      } else {
        for (const i of open) outcomes[i] = { error };
      }
    }
    return outcomes;
  }

  /** The statement's input for a send: its ids, and the message.sent envelope the statement completes. */
  private item(d: Draft, ord: number): SendBatchItem {
    const id = randomUUID();
    // conversationId, seq, first and sentAt are the statement's (MessageSentByStatement), from the locked row.
    const event = this.outbox.factRowToComplete<'message.sent', MessageSentByStatement>('message.sent', {
      messageId: id,
      senderId: d.senderId,
      recipientId: d.recipientId,
      length: d.length,
    });
    // The send's own request id (the handler runs for the whole delivery, outside any one send's context).
    event.body.requestId = d.requestId;
    return {
      ord,
      id,
      a: d.a,
      b: d.b,
      sender: d.senderId,
      recipient: d.recipientId,
      client_id: d.clientId,
      content: d.content,
      event_id: event.id,
      event: event.body,
    };
  }
}

/** PostgreSQL refused the data (SQLSTATE class 22) or a constraint (class 23), not the connection or the server. */
function isDataError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

/** A send as the statement takes it: its content normalized (SendMessageDto checked it, and that it is not to oneself). */
function draft(index: number, { payload, sender, requestId }: SocketEventEntry<SendMessageDto>): Draft {
  const senderId = sender.userId;
  const recipientId = payload.recipientId.toLowerCase();
  const content = normalizeMessageContent(payload.content);
  const length = messageLength(content);
  const [a, b] = orderedPairOf(senderId, recipientId);
  // Without a clientId the server makes one: no retry protection, by the client's choice.
  return {
    index,
    senderId,
    recipientId,
    a,
    b,
    clientId: payload.clientId ?? randomUUID(),
    content,
    length,
    requestId,
  };
}

/** What the statement's row says of a send (committed): its new message, the stored one of a retry, or the refusal. */
function answer(d: Draft, item: SendBatchItem, row: SendBatchRow): Outcome {
  // No open conversation (unmatch, block: safety's pair events; never matched), or a suspended
  // member (issue 13): refused alike, nothing stored; the sender learns no more than that.
  if (row.refused || row.conversation_id === null) {
    return { error: forbidden(ChatMessages.notMatched, ChatErrorCode.NotMatched) };
  }
  const readSeq = row.recipient_read_seq ?? 0;
  if (row.seq !== null && row.created_at !== null) {
    return {
      message: {
        id: item.id,
        seq: row.seq,
        senderId: d.senderId,
        recipientId: d.recipientId,
        content: d.content,
        createdAt: row.created_at,
        isRead: row.seq <= readSeq,
        senderName: row.sender_name,
        clientId: d.clientId,
      },
    };
  }
  // A retry: the sender's earlier message with this client id. One in another conversation, or
  // from the history a re-match hid (at or before history_from_seq), is not answered again, nor
  // pushed: 409.
  if (
    row.existing_id === null ||
    row.existing_seq === null ||
    row.existing_conversation_id !== row.conversation_id ||
    row.existing_seq <= (row.history_from_seq ?? 0)
  ) {
    return { error: conflict(ChatMessages.clientIdReused, ChatErrorCode.ClientIdReused) };
  }
  return {
    message: {
      id: row.existing_id,
      seq: row.existing_seq,
      senderId: d.senderId,
      recipientId: row.existing_recipient_id ?? d.recipientId,
      content: row.existing_content ?? '',
      createdAt: row.existing_created_at ?? '',
      isRead: row.existing_seq <= readSeq,
      senderName: row.sender_name,
      clientId: d.clientId,
    },
  };
}
