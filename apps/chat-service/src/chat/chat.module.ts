import { Module } from '@nestjs/common';
import { pairGateProvider, RealtimeModule } from '@mate/server-kit';
import { ChatController } from './chat.controller';
import { ChatNotifier } from './chat-notifier';
import { ChatRateLimiter } from './chat-rate-limits';
import { ChatSocketEvents } from './chat-socket-events';
import { ConversationFromGate } from './conversation-from-gate';
import { ConversationRepository } from './conversation.repository';
import { ConversationsService } from './conversations.service';
import { MemberRepository } from './member.repository';
import { MessageRepository } from './message.repository';
import { MessageSender } from './message-sender';
import { MessagesService } from './messages.service';
import { PairRepository } from './pair.repository';
import { PairSnapshotController } from './pair-snapshot.controller';
import { ChatMemberErasure } from '../member-data/chat-member-erasure';

/** Chat: conversations opened by matches, messages, read state, typing, and their live pushes. */
@Module({
  imports: [RealtimeModule.forRoot()],
  controllers: [ChatController, PairSnapshotController],
  providers: [
    MessagesService,
    MessageSender,
    ConversationsService,
    ConversationFromGate,
    ChatNotifier,
    ChatRateLimiter,
    ChatSocketEvents,
    ChatMemberErasure,
    pairGateProvider,
    ConversationRepository,
    MessageRepository,
    PairRepository,
    MemberRepository,
  ],
  // The event handlers (the kit's EventsModule imports this module) tell the typing relay of
  // pairs that opened or closed, write the projections and erase a deleted member; the member
  // data export reads the conversations.
  exports: [
    ConversationsService,
    ChatMemberErasure,
    PairRepository,
    MemberRepository,
    ConversationRepository,
  ],
})
export class ChatModule {}
