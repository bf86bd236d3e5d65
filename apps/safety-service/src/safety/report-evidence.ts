import { Inject, Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { Logger } from 'pino';
import {
  REPORT_MESSAGE_SNAPSHOT_SIZE,
  SERVICES,
  type PairMessageSnapshot,
  type PairMessagesSnapshotDto,
} from '@mate/contracts';
import { LOGGER, ServiceCallError, ServiceClient } from '@mate/server-kit';
import { SafetyEnv } from '../safety.env';

/** chat-service's internal route of the last messages between two members (libs/contracts chat.ts). */
export const pairMessagesPath = (a: string, b: string) => `/internal/chat/pairs/${a}/${b}/messages`;

/** chat's answer was not the contract's shape. */
export class UnreadableSnapshotError extends Error {
  override readonly name = 'UnreadableSnapshotError';
}

/**
 * The messages a report keeps: the last REPORT_MESSAGE_SNAPSHOT_SIZE between the two members sent
 * before the report, oldest first, asked of chat-service (the owner of messages) over its internal
 * route with a timeout. Only the contract's fields are kept, and only messages between these two.
 */
@Injectable()
export class ReportEvidence {
  constructor(
    private readonly client: ServiceClient,
    private readonly env: SafetyEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The snapshot; throws ServiceCallError (chat down, slow, failing) or UnreadableSnapshotError. */
  async messages(reporterId: string, reportedId: string, before: Date): Promise<PairMessageSnapshot[]> {
    const answer = await this.client.get<PairMessagesSnapshotDto>(SERVICES.chat, pairMessagesPath(reporterId, reportedId), {
      timeoutMs: this.env.SAFETY_CHAT_TIMEOUT_MS,
      query: { before, limit: REPORT_MESSAGE_SNAPSHOT_SIZE },
    });
    if (!answer || !Array.isArray(answer.messages)) throw new UnreadableSnapshotError('chat answered without a message list');
    const pair = new Set([reporterId, reportedId]);
    return answer.messages
      .filter(isSnapshot)
      .map(({ id, seq, senderId, recipientId, content, createdAt }) => ({
        id,
        seq,
        senderId: senderId.toLowerCase(),
        recipientId: recipientId.toLowerCase(),
        content: storable(content),
        createdAt,
      }))
      .filter((m) => pair.has(m.senderId) && pair.has(m.recipientId) && new Date(m.createdAt) < before)
      .sort((x, y) => x.createdAt.localeCompare(y.createdAt) || x.seq - y.seq)
      .slice(-REPORT_MESSAGE_SNAPSHOT_SIZE);
  }

  /** The snapshot, or null when chat could not give it now (logged without content). */
  async messagesOrNull(reporterId: string, reportedId: string, before: Date): Promise<PairMessageSnapshot[] | null> {
    try {
      return await this.messages(reporterId, reportedId, before);
    } catch (e) {
      this.logger.warn({ err: describe(e) }, "chat's message snapshot unavailable; the report keeps it pending");
      return null;
    }
  }
}

/** What a log line may say of a failed snapshot call (never a body or a credential). */
export function describe(e: unknown): Record<string, unknown> {
  if (e instanceof ServiceCallError) return { name: e.name, failure: e.failure, status: e.status, message: e.message };
  return e instanceof Error ? { name: e.name, message: e.message } : { message: String(e) };
}

/**
 * Text as jsonb can keep it: PostgreSQL refuses U+0000 and unpaired surrogates in json, so one such
 * message would fail the whole report (503: the pair could not be reported) or its pending snapshot
 * for ever. Each becomes U+FFFD; the rest is kept as chat stored it.
 */
export function storable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

function isSnapshot(m: unknown): m is PairMessageSnapshot {
  const x = m as Partial<PairMessageSnapshot> | null;
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof x.id === 'string' &&
    typeof x.seq === 'number' &&
    typeof x.senderId === 'string' &&
    isUUID(x.senderId) &&
    typeof x.recipientId === 'string' &&
    isUUID(x.recipientId) &&
    typeof x.content === 'string' &&
    typeof x.createdAt === 'string' &&
    !Number.isNaN(new Date(x.createdAt).getTime())
  );
}
