import { DynamicModule, Module } from '@nestjs/common';
import { SERVICES } from '@mate/contracts';
import { MemberDataModule, ServiceModule } from '@mate/server-kit';
import { ChatEnv } from './chat.env';
import { CHAT_ENTITIES } from './chat/chat.entities';
import { ChatEventHandlers } from './chat/chat-event.handlers';
import { ChatModule } from './chat/chat.module';
import { CreateChat1795600000000 } from './migrations/1795600000000-CreateChat';
import { ChatSafety1795700000000 } from './migrations/1795700000000-ChatSafety';
import { ChatPairVersion1795800000000 } from './migrations/1795800000000-ChatPairVersion';
import { ChatMemberErasure1796100000000 } from './migrations/1796100000000-ChatMemberErasure';
import { ChatMemberSuspension1796200000000 } from './migrations/1796200000000-ChatMemberSuspension';
import { ChatMemberExporter } from './member-data/chat-member-exporter';

@Module({})
export class AppModule {
  /** `env` wins over process.env, so a test can run this service next to others in one process. */
  static forRoot(env?: Partial<Record<string, string>>): DynamicModule {
    return ServiceModule.forRoot({
      service: SERVICES.chat,
      envClass: ChatEnv,
      env,
      entities: CHAT_ENTITIES,
      migrations: [
        CreateChat1795600000000,
        ChatSafety1795700000000,
        ChatPairVersion1795800000000,
        ChatMemberErasure1796100000000,
        ChatMemberSuspension1796200000000,
      ],
      features: [ChatModule, MemberDataModule.forExporter(ChatMemberExporter, { imports: [ChatModule] })],
      handlers: ChatEventHandlers,
    });
  }
}
