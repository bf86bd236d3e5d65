import type { MessageResponse, SessionDto } from '@mate/contracts';
import type { HttpClient } from './http';
import { ClientMessages } from './messages';

export interface SessionsApi {
  mySessions(): Promise<SessionDto[]>;
  deleteSession(id: string): Promise<MessageResponse | undefined>;
  deleteOtherSessions(): Promise<MessageResponse | undefined>;
}

export function createSessionsApi(http: HttpClient): SessionsApi {
  return {
    async mySessions() {
      const body = await http.get<SessionDto[] | { sessions?: SessionDto[] }>('/api/sessions/my', {
        cache: 'no-store',
        fallbackMessage: ClientMessages.fetchSessionsFailed,
      });
      if (Array.isArray(body)) return body;
      return body?.sessions ?? [];
    },
    deleteSession(id) {
      return http.delete(`/api/sessions/${encodeURIComponent(id)}`, {
        fallbackMessage: ClientMessages.deleteSessionFailed,
      });
    },
    deleteOtherSessions() {
      return http.delete('/api/sessions/all/except-current', {
        fallbackMessage: ClientMessages.logoutAllSessionsFailed,
      });
    },
  };
}
