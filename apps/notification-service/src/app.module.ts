import { DynamicModule, Module } from '@nestjs/common';
import { SERVICES } from '@mate/contracts';
import { MemberDataModule, ServiceModule } from '@mate/server-kit';
import { NotificationEnv } from './notification.env';
import { EmailDelivery } from './emails/email-delivery.entity';
import { EmailsModule } from './emails/emails.module';
import { NotificationEventHandlers } from './emails/notification-event.handlers';
import { NotificationMemberData } from './member-data/notification-member-data';
import { NOTIFICATION_MIGRATIONS } from './migrations';
import { PushModule } from './push/push.module';

@Module({})
export class AppModule {
  /** `env` wins over process.env, so a test can run this service next to others in one process. */
  static forRoot(env?: Partial<Record<string, string>>): DynamicModule {
    return ServiceModule.forRoot({
      service: SERVICES.notification,
      envClass: NotificationEnv,
      env,
      entities: [EmailDelivery],
      migrations: NOTIFICATION_MIGRATIONS,
      features: [
        EmailsModule,
        PushModule,
        MemberDataModule.forExporter(NotificationMemberData, { imports: [PushModule] }),
      ],
      handlers: NotificationEventHandlers,
      // auth-service's suspensions (user.suspended, user.unsuspended) and the pairs' block state
      // (user.blocked, user.unblocked, match.ended): the kit's projections, read by PushNotifier
      // (nothing is pushed to or about a suspended member, nor across a block) and by match.created.
      projections: ['suspension', 'pair'],
    });
  }
}
