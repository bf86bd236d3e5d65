import type { ChatMessageDto } from '@mate/contracts';
import { SessionStore } from '@mate/server-kit';
import {
  startGatewayTestBed,
  startServiceTestBed,
  type GatewayTestBed,
  type ServiceTestBed,
  type TestDatabaseSource,
  type TestEnv,
  type MemberConnection,
  type TestMember,
} from '@mate/server-kit/testing';
import { AppModule } from '../app.module';

export { ackError, aProfile, type MemberConnection, type MemberSocket } from '@mate/server-kit/testing';

/** A member with a live session, their profile known to chat (profile.updated delivered). */
export type ChatMember = TestMember;

export interface ChatTestBed extends Omit<GatewayTestBed, 'match'> {
  /** chat-service in this process on a fresh database and Redis prefix. */
  chat: ServiceTestBed;
  sessions: SessionStore;
  /** Delivers match.created for the pair through the consumer: their conversation opens. */
  match(a: ChatMember, b: ChatMember, matchId?: string): Promise<string>;
}

/**
 * chat-service on the service test bed and the real gateway in front of it (the kit's
 * startGatewayTestBed), so every test goes the way the app goes: socket.io through the gateway,
 * REST through the gateway, events through chat's real consumer.
 */
export async function startChatTestBed(
  label: string,
  {
    env = {},
    overrides = [],
    database,
  }: { env?: TestEnv; overrides?: { provide: unknown; useValue: unknown }[]; database?: TestDatabaseSource } = {},
): Promise<ChatTestBed> {
  const chat = await startServiceTestBed((e) => AppModule.forRoot(e), {
    label,
    database,
    env: { CHAT_MESSAGES_PER_10_SECONDS: '100000', ...env },
    overrides,
  });
  const front = await startGatewayTestBed(chat, { CHAT_SERVICE_URL: chat.url });
  const testBed: ChatTestBed = {
    ...front,
    chat,
    sessions: chat.app.get(SessionStore),
    match: (a, b, matchId) => front.match(a, b, { matchId }),
  };
  return testBed;
}

/** The stored message a `send_message` acknowledgement answers; a refusal fails with what it said. */
export function sentMessage(ack: unknown): ChatMessageDto {
  if (typeof ack !== 'object' || ack === null || 'error' in ack)
    throw new Error(`send refused: ${JSON.stringify(ack)}`);
  return ack as ChatMessageDto;
}

/** Sends over the connection and answers the stored message (a refusal fails). */
export async function sendMessage(
  from: MemberConnection,
  to: ChatMember,
  content: string,
): Promise<ChatMessageDto> {
  return sentMessage(await from.emit('send_message', { recipientId: to.userId, content }));
}
