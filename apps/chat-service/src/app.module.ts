import { DynamicModule, Module } from '@nestjs/common';
import { SERVICES } from '@mate/contracts';
import { MemberDataModule, ServiceModule } from '@mate/server-kit';
import { ChatEnv } from './chat.env';
import { CHAT_ENTITIES } from './chat/chat.entities';
import { ChatEventHandlers } from './chat/chat-event.handlers';
import { ChatModule } from './chat/chat.module';
import { CHAT_MIGRATIONS } from './migrations';
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
      migrations: CHAT_MIGRATIONS,
      features: [ChatModule, MemberDataModule.forExporter(ChatMemberExporter, { imports: [ChatModule] })],
      handlers: ChatEventHandlers,
      // auth-service's suspensions (user.suspended, user.unsuspended) and safety's pair events
      // (user.blocked, user.unblocked, match.ended): the kit's projections, read by the send
      // statement, typing, the list and the live-match rule; ChatEventHandlers adds chat's own part
      // (settling the pair's conversation, stopping typing).
      projections: ['suspension', 'pair'],
    });
  }
}
