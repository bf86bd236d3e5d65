import { Injectable } from '@nestjs/common';
import {
  ChatErrorCode,
  ChatMessages,
  orderedPairOf,
  type ConversationSummaryDto,
  type MarkReadResultDto,
  type UnreadCountDto,
} from '@mate/contracts';
import { forbidden, notFound, PairGate, pairGateRefuses, ReadReplica } from '@mate/server-kit';
import { ChatEnv } from '../chat.env';
import { ChatNotifier } from './chat-notifier';
import { isoTime } from './chat-mapper';
import { ConversationRepository } from './conversation.repository';

/** The most conversations the list answers (a member with more sees their 500 most recent). */
export const CONVERSATION_LIST_MAX = 500;

/**
 * The Messages screen: the caller's open conversations, read state and the unread badge, and the
 * typing relay between the two members of an open conversation.
 */
@Injectable()
export class ConversationsService {
  /** Open pairs the typing relay looked up lately: key `a:b`, value the time it stops trusting it. */
  private readonly openPairs = new Map<
    string,
    { open: boolean; matchPairVersion: number | null; until: number }
  >();
  /** Moves on every pair change this replica applies: a lookup that raced one is not cached. */
  private pairEpoch = 0;
  /** Members this replica just suspended: key the member id, value until when (suspensionChanged). */
  private readonly justSuspended = new Map<string, number>();

  constructor(
    private readonly conversations: ConversationRepository,
    private readonly notifier: ChatNotifier,
    private readonly env: ChatEnv,
    private readonly gate: PairGate,
    private readonly reads: ReadReplica,
  ) {}

  async list(callerId: string): Promise<ConversationSummaryDto[]> {
    const rows = await this.conversations.list(callerId, CONVERSATION_LIST_MAX);
    return rows.map((r) => ({
      userId: r.other,
      userName: r.name,
      profilePicture: r.profile_picture,
      unreadCount: r.unread,
      lastMessage: r.last_content,
      lastMessageTime: isoTime(r.activity),
      lastMessageSenderId: r.last_sender_id,
      lastSeq: r.last_seq,
      matchedAt: isoTime(r.matched_at),
      ...(r.read_only ? { readOnly: true } : {}),
    }));
  }

  async unreadCount(callerId: string): Promise<UnreadCountDto> {
    return { count: await this.conversations.unreadCount(callerId) };
  }

  /**
   * Everything the other member sent so far is read: the caller's read position moves to the
   * conversation's last seq and their unread counter to 0; the other member hears `messages_read`
   * when the position moved.
   */
  async markRead(callerId: string, otherId: string): Promise<MarkReadResultDto> {
    if (callerId === otherId) throw notFound(ChatMessages.conversationNotFound, ChatErrorCode.ConversationNotFound);
    const [a, b] = orderedPairOf(callerId, otherId);
    const read = await this.conversations.markRead(a, b, callerId);
    if (!read) throw notFound(ChatMessages.conversationNotFound, ChatErrorCode.ConversationNotFound);
    if (read.lastSeq !== read.previous) {
      await this.reads.wrote(callerId);
      await this.notifier.read(otherId, { userId: callerId, readUpTo: read.lastSeq });
    }
    return { readUpTo: read.lastSeq };
  }

  /**
   * Relays typing / stop typing to the other member of an open conversation; 403 otherwise. Each
   * event has counted against the member's typing limit before (the kit's, `@CountedPerMember`:
   * 429 past it, nothing relayed). The pair gate (ADR 0024) is read every time, never cached: a
   * block or unmatch that has answered stops typing at once on every replica.
   */
  async typing(callerId: string, otherId: string, typing: boolean): Promise<void> {
    const gate = callerId === otherId ? null : await this.gate.read(callerId, otherId);
    const pair = await this.openPair(callerId, otherId);
    if (!pair.open || pairGateRefuses(gate, pair.matchPairVersion)) {
      throw forbidden(ChatMessages.notMatched, ChatErrorCode.NotMatched);
    }
    await this.notifier.typing(otherId, callerId, typing);
  }

  /**
   * Whether the pair has an open conversation, from a short in-process cache: typing events come
   * several a second and are ephemeral. A close applied on this replica is seen at once
   * (pairChanged); one applied on another replica within CHAT_TYPING_PAIR_CACHE_MS.
   */
  private async openPair(x: string, y: string): Promise<{ open: boolean; matchPairVersion: number | null }> {
    const closed = { open: false, matchPairVersion: null };
    if (x === y) return closed;
    if (this.justSuspended.size > 0 && [x, y].some((id) => (this.justSuspended.get(id) ?? 0) > Date.now()))
      return closed;
    const [a, b] = orderedPairOf(x, y);
    const key = `${a}:${b}`;
    const cached = this.openPairs.get(key);
    if (cached && cached.until > Date.now()) return cached;
    const epoch = this.pairEpoch;
    const pair = await this.conversations.openPair(a, b);
    const ttl = this.env.CHAT_TYPING_PAIR_CACHE_MS;
    const now = Date.now();
    if (ttl > 0 && epoch === this.pairEpoch) {
      if (this.openPairs.size >= 10_000) this.openPairs.clear();
      // A refusal is kept for a shorter time, so a pair that just matched types soon.
      this.openPairs.set(key, { ...pair, until: now + (pair.open ? ttl : Math.min(ttl, 1_000)) });
    }
    return pair;
  }

  /**
   * A member's suspension changed (an event handler on this replica, before its commit): every
   * cached pair is forgotten. A suspension is remembered for a moment, so a lookup between now
   * and the commit cannot cache one of their pairs as open again; typing to or from a suspended
   * member stops at once here, on other replicas within CHAT_TYPING_PAIR_CACHE_MS.
   */
  suspensionChanged(userId: string, suspended: boolean): void {
    this.pairEpoch++;
    this.openPairs.clear();
    for (const [id, until] of this.justSuspended) if (until <= Date.now()) this.justSuspended.delete(id);
    if (suspended) this.justSuspended.set(userId, Date.now() + 1_000);
    else this.justSuspended.delete(userId);
  }

  /**
   * The pair's conversation opened or closed (an event handler on this replica, before its
   * commit): the typing relay stops trusting what it cached. A close is remembered as closed for
   * a moment, so a lookup between now and the commit cannot cache the pair as open again; other
   * replicas notice within CHAT_TYPING_PAIR_CACHE_MS.
   */
  pairChanged(a: string, b: string, open: boolean): void {
    this.pairEpoch++;
    const key = `${a}:${b}`;
    const ttl = this.env.CHAT_TYPING_PAIR_CACHE_MS;
    if (open || ttl === 0) this.openPairs.delete(key);
    else
      this.openPairs.set(key, {
        open: false,
        matchPairVersion: null,
        until: Date.now() + Math.min(ttl, 1_000),
      });
  }
}
