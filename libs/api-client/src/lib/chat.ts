import {
  CONVERSATION_PAGE_SIZE,
  ChatMessages,
  type ConversationPageDto,
  type ConversationSummaryDto,
  type MarkReadResultDto,
  type UnreadCountDto,
} from '@mate/contracts';
import type { HttpClient } from './http';

/** Which page of a conversation to load: the newest, older than a sequence, or newer than one. */
export interface ConversationQuery {
  limit?: number;
  /** Messages with a sequence number below this one (older, for scrolling back). */
  before?: number;
  /** Messages with a sequence number above this one (what followed, to resume). */
  after?: number;
}

export interface ChatApi {
  /** GET /api/chat/conversations (spec 000 §3 summaries), newest activity first. */
  getConversations(): Promise<ConversationSummaryDto[]>;
  /** GET /api/chat/conversation/{userId}?limit=50 (spec 000 §7), with the cursors. */
  getConversation(userId: string, query?: ConversationQuery): Promise<ConversationPageDto>;
  /** POST /api/chat/conversation/{userId}/read. */
  markAsRead(userId: string): Promise<MarkReadResultDto>;
  /** GET /api/chat/unread-count: unread messages over all conversations. */
  getUnreadCount(): Promise<number>;
}

const conversationPath = (userId: string) => `/api/chat/conversation/${encodeURIComponent(userId)}`;

export function createChatApi(http: HttpClient): ChatApi {
  return {
    async getConversations() {
      const body = await http.get<unknown>('/api/chat/conversations', {
        cache: 'no-store',
        fallbackMessage: ChatMessages.conversationsFailed,
      });
      return Array.isArray(body) ? (body as ConversationSummaryDto[]) : [];
    },
    getConversation(userId, { limit = CONVERSATION_PAGE_SIZE, before, after } = {}) {
      return http.get<ConversationPageDto>(conversationPath(userId), {
        query: { limit, ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) },
        cache: 'no-store',
        fallbackMessage: ChatMessages.conversationFailed,
      });
    },
    markAsRead(userId) {
      return http.post<MarkReadResultDto>(`${conversationPath(userId)}/read`, { fallbackMessage: ChatMessages.markReadFailed });
    },
    async getUnreadCount() {
      const body = await http.get<Partial<UnreadCountDto> | undefined>('/api/chat/unread-count', {
        cache: 'no-store',
        fallbackMessage: ChatMessages.unreadCountFailed,
      });
      return typeof body?.count === 'number' ? body.count : 0;
    },
  };
}
