import { Module } from '@nestjs/common';
import { pairGateProvider, RealtimeModule } from '@mate/server-kit';
import { ChatController } from './chat.controller';
import { ChatNotifier } from './chat-notifier';
import { ChatRateLimiter } from './chat-rate-limits';
import { ChatSocketEvents } from './chat-socket-events';
import { ConversationFromGate } from './conversation-from-gate';
import { ConversationsService } from './conversations.service';
import { MessageSender } from './message-sender';
import { MessagesService } from './messages.service';
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
  ],
  // The event handlers (the kit's EventsModule imports this module) tell the typing relay of
  // pairs that opened or closed, and erase a deleted member.
  exports: [ConversationsService, ChatMemberErasure],
})
export class ChatModule {}
