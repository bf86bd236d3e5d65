import { Inject, Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import type { EventEnvelope, MatchCreatedPayload, ProfileUpdatedPayload } from '@mate/contracts';
import { LOGGER, type EventHandlers, type EventHandlerSet } from '@mate/server-kit';
import { orderedPair } from './chat-db';

/**
 * Events chat-service consumes. The consumer runs each once per event id, in one transaction, and
 * a profile.updated only when its version is newer than the one applied for that profile.
 */
@Injectable()
export class ChatEventHandlers implements EventHandlerSet {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  handlers(): EventHandlers {
    return {
      'match.created': (payload, manager) => this.openConversation(manager, payload),
      'profile.updated': (payload, manager, envelope) => this.applyProfile(manager, payload, envelope),
    };
  }

  /**
   * Opens the pair's conversation; a closed one (unmatch, later) reopens with the new match, its
   * history kept. A redelivery of the same match changes nothing.
   */
  async openConversation(manager: EntityManager, payload: MatchCreatedPayload): Promise<void> {
    const ids = Array.isArray(payload.userIds) ? payload.userIds : [];
    const matchedAt = new Date(payload.createdAt);
    if (
      ids.length !== 2 ||
      !ids.every((id) => typeof id === 'string' && isUUID(id)) ||
      ids[0].toLowerCase() === ids[1].toLowerCase() ||
      typeof payload.matchId !== 'string' ||
      !isUUID(payload.matchId) ||
      Number.isNaN(matchedAt.getTime())
    ) {
      // Retrying would not make it valid; it is kept in processed_event and skipped.
      this.logger.error({ matchId: payload.matchId }, 'match.created with an unreadable payload skipped');
      return;
    }
    const [a, b] = orderedPair(ids[0].toLowerCase(), ids[1].toLowerCase());
    await manager.query(
      `INSERT INTO conversation (id, member_a, member_b, match_id, matched_at) VALUES ($1, $2, $3, $1, $4)
       ON CONFLICT (member_a, member_b) DO UPDATE
         SET closed_at = NULL, match_id = EXCLUDED.match_id, matched_at = EXCLUDED.matched_at
         WHERE conversation.closed_at IS NOT NULL AND conversation.match_id <> EXCLUDED.match_id`,
      [payload.matchId.toLowerCase(), a, b, matchedAt],
    );
  }

  /** The name and picture conversations show; an older version never overwrites a newer one. */
  async applyProfile(
    manager: EntityManager,
    payload: ProfileUpdatedPayload,
    envelope: EventEnvelope<'profile.updated'>,
  ): Promise<void> {
    if (typeof payload.userId !== 'string' || !isUUID(payload.userId)) return;
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    await manager.query(
      `INSERT INTO chat_member (user_id, name, profile_picture, version) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id) DO UPDATE
         SET name = EXCLUDED.name, profile_picture = EXCLUDED.profile_picture, version = EXCLUDED.version, updated_at = now()
         WHERE chat_member.version < EXCLUDED.version OR EXCLUDED.version = 0`,
      [payload.userId.toLowerCase(), text(payload.name), text(payload.profilePicture), envelope.aggregateVersion ?? 0],
    );
  }
}
