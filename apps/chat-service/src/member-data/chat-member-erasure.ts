import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import { DELETED_MEMBER_NAME, orderedPairOf } from '@mate/contracts';
import { eraseMemberTraces, LOGGER } from '@mate/server-kit';
import { ChatRateLimiter } from '../chat/chat-rate-limits';
import { ConversationsService } from '../chat/conversations.service';

/** The projection row of an anonymised member: no profile event can name it, none overwrites it. */
const ANONYMISED_MEMBER_VERSION = 2_147_483_647;

/**
 * Renumbers what is left of a conversation after the deleted member's messages went (seqs have no
 * gaps: sync counts a conversation's messages as `last_seq - position`) and moves the deleted
 * member's side to the fresh id. Every position (read seqs, history_from_seq) becomes the number
 * of remaining messages at or before it. The other member read everything that is left (it is
 * all theirs); the last message shown is the newest visible one.
 *
 * $1 conversation, $2 the deleted member, $3 the fresh id, $4 member_a, $5 member_b (the new pair).
 */
const ANONYMISE_CONVERSATION_SQL = `
WITH kept AS (
  SELECT id, seq, created_at, row_number() OVER (ORDER BY seq)::int AS n FROM message WHERE conversation_id = $1::uuid
), parked AS (
  -- (conversation_id, seq) is checked row by row: negative seqs first, flipped by the caller after.
  UPDATE message m SET seq = -kept.n, recipient_id = $3::uuid FROM kept WHERE m.id = kept.id RETURNING m.id
), old AS (
  SELECT c.*,
         CASE WHEN c.member_a = $2::uuid THEN c.a_read_seq ELSE c.b_read_seq END AS erased_read_seq,
         (SELECT count(*) FROM kept WHERE kept.seq <= c.history_from_seq)::int AS new_history_from
  FROM conversation c WHERE c.id = $1::uuid
), positions AS (
  SELECT old.*,
         (SELECT count(*) FROM kept)::int AS new_last_seq,
         (SELECT count(*) FROM kept WHERE kept.seq <= old.erased_read_seq)::int AS new_erased_read,
         (SELECT row_to_json(l) FROM (SELECT kept.id, kept.created_at FROM kept WHERE kept.n > old.new_history_from
                                       ORDER BY kept.n DESC LIMIT 1) l) AS last_visible
  FROM old
)
UPDATE conversation c
   SET member_a = $4::uuid, member_b = $5::uuid,
       last_seq = p.new_last_seq,
       history_from_seq = p.new_history_from,
       last_message_id = (p.last_visible->>'id')::uuid,
       last_message_at = (p.last_visible->>'created_at')::timestamptz,
       a_read_seq = CASE WHEN $4::uuid = $3::uuid THEN p.new_erased_read ELSE p.new_last_seq END,
       b_read_seq = CASE WHEN $5::uuid = $3::uuid THEN p.new_erased_read ELSE p.new_last_seq END,
       a_unread = 0, b_unread = 0,
       anonymised_at = now()
  FROM positions p
 WHERE c.id = p.id
RETURNING c.id`;

/**
 * `user.deleted` in chat (README "Member data", docs/adr/0016-member-data.md): the messages the
 * member sent are deleted; a conversation with messages of the other member stays for them under
 * a fresh random id for the deleted member (one per conversation, so two cannot be linked), shown
 * as DELETED_MEMBER_NAME with no picture, read-only (`anonymised_at`); a conversation with nothing
 * of the other member's goes. The member's projections (name and picture, pair states, ended
 * matches), the kit's traces and the member's rate-limit keys go. Idempotent: a second run finds
 * nothing of the member.
 */
@Injectable()
export class ChatMemberErasure {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly conversations: ConversationsService,
    private readonly limits: ChatRateLimiter,
  ) {}

  /** `userId` as the consumer read it from `user.deleted` (a UUID, lower case). */
  async erase(manager: EntityManager, userId: string): Promise<void> {
    await eraseMemberTraces(manager, userId);

    // A send to one of these conversations waits for this transaction, then finds no pair of the
    // deleted member's id any more (its row was moved or deleted): refused as for a stranger.
    const conversations: { id: string; member_a: string; member_b: string }[] = await manager.query(
      `SELECT id, member_a, member_b FROM conversation WHERE member_a = $1::uuid OR member_b = $1::uuid ORDER BY id FOR UPDATE`,
      [userId],
    );
    await manager.query('DELETE FROM message WHERE sender_id = $1::uuid', [userId]);
    let anonymised = 0;
    for (const c of conversations) {
      const other = c.member_a === userId ? c.member_b : c.member_a;
      const [{ kept }]: { kept: number }[] = await manager.query(
        'SELECT count(*)::int AS kept FROM message WHERE conversation_id = $1::uuid',
        [c.id],
      );
      if (kept === 0) {
        await manager.query('DELETE FROM conversation WHERE id = $1::uuid', [c.id]);
        // Both members deleted: the first one's anonymous stand-in goes with the conversation.
        await manager.query('DELETE FROM chat_member WHERE user_id = $1::uuid AND version = $2', [other, ANONYMISED_MEMBER_VERSION]);
      } else {
        const anonymousId = randomUUID();
        const [a, b] = orderedPairOf(other, anonymousId);
        await manager.query(ANONYMISE_CONVERSATION_SQL, [c.id, userId, anonymousId, a, b]);
        await manager.query('UPDATE message SET seq = -seq WHERE conversation_id = $1::uuid AND seq < 0', [c.id]);
        await manager.query(
          `INSERT INTO chat_member (user_id, name, profile_picture, version) VALUES ($1::uuid, $2, NULL, $3)`,
          [anonymousId, DELETED_MEMBER_NAME, ANONYMISED_MEMBER_VERSION],
        );
        anonymised++;
      }
      this.conversations.pairChanged(c.member_a, c.member_b, false);
    }
    await manager.query('DELETE FROM chat_pair WHERE member_a = $1::uuid OR member_b = $1::uuid', [userId]);
    await manager.query('DELETE FROM ended_match WHERE member_a = $1::uuid OR member_b = $1::uuid', [userId]);
    await manager.query('DELETE FROM chat_member WHERE user_id = $1::uuid', [userId]);
    // Expire within seconds anyway; a retry of the handler deletes them again.
    await this.limits.forget(userId);
    this.logger.info({ conversations: conversations.length, anonymised }, 'member erased from chat');
  }
}
