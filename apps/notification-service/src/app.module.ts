import { DynamicModule, Module } from '@nestjs/common';
import { SERVICES } from '@mate/contracts';
import { MemberDataModule, ServiceModule } from '@mate/server-kit';
import { NotificationEnv } from './notification.env';
import { EmailDelivery } from './emails/email-delivery.entity';
import { EmailsModule } from './emails/emails.module';
import { NotificationEventHandlers } from './emails/notification-event.handlers';
import { NotificationMemberData } from './member-data/notification-member-data';
import { CreateEmailDelivery1795284000000 } from './migrations/1795284000000-CreateEmailDelivery';
import { CreatePush1796100000000 } from './migrations/1796100000000-CreatePush';
import { EmailDeliveryMember1796200000000 } from './migrations/1796200000000-EmailDeliveryMember';
import { NotificationMemberSuspension1796300000000 } from './migrations/1796300000000-NotificationMemberSuspension';
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
      migrations: [
        CreateEmailDelivery1795284000000,
        CreatePush1796100000000,
        EmailDeliveryMember1796200000000,
        NotificationMemberSuspension1796300000000,
      ],
      features: [
        EmailsModule,
        PushModule,
        MemberDataModule.forExporter(NotificationMemberData, { imports: [PushModule] }),
      ],
      handlers: NotificationEventHandlers,
    });
  }
}
