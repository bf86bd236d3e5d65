import { Module } from '@nestjs/common';
import { ChatController } from './chat.controller';

/** The generated first feature of chat-service; replace it with the service's own. */
@Module({
  controllers: [ChatController],
})
export class ChatModule {}
