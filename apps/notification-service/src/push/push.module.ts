import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { BaseServiceEnv, LOGGER, PresenceReader, REDIS, SERVICE_ENV, type RedisClient } from '@mate/server-kit';
import { EmailDeliveryRepository } from '../emails/emails.repository';
import { NotificationMemberData } from '../member-data/notification-member-data';
import { NotificationEnv } from '../notification.env';
import { PushBursts } from './push-bursts';
import { PushEventHandlers } from './push-event.handlers';
import { PushNotifier } from './push-notifier';
import { PushQueue } from './push-queue';
import { PushRateLimiter } from './push-rate-limits';
import { PushSender } from './push-sender';
import { PUSH_TLS_OPTIONS, PushSettings } from './push-settings';
import { PushController } from './push.controller';
import { PushRepository } from './push.repository';
import { PushService } from './push.service';
import { PushWorker } from './push.worker';

/** Web push: the member's routes, the decisions on events, collapse, and the push queue's worker. */
@Module({
  controllers: [PushController],
  providers: [
    {
      provide: PushSettings,
      inject: [NotificationEnv],
      useFactory: (env: NotificationEnv) => new PushSettings(env),
    },
    { provide: PUSH_TLS_OPTIONS, useValue: {} },
    {
      provide: PresenceReader,
      inject: [REDIS, SERVICE_ENV],
      useFactory: (redis: RedisClient, env: BaseServiceEnv) => new PresenceReader(redis, env.KEY_PREFIX),
    },
    PushRepository,
    PushService,
    PushRateLimiter,
    PushQueue,
    PushBursts,
    PushNotifier,
    PushSender,
    PushWorker,
    PushEventHandlers,
    // The member's data covers their emails too (the delivery log's SQL, no state of its own).
    EmailDeliveryRepository,
    NotificationMemberData,
  ],
  exports: [PushEventHandlers, PushRepository, PushSettings, NotificationMemberData, PushRateLimiter, EmailDeliveryRepository],
})
export class PushModule implements OnModuleInit {
  constructor(
    private readonly settings: PushSettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit() {
    // A deployment that forgot its keys says so once, instead of silently pushing nothing.
    if (!this.settings.configured)
      this.logger.warn('web push is off: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set');
  }
}
