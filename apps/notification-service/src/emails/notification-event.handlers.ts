import { Injectable } from '@nestjs/common';
import { QueueName } from '@mate/contracts';
import { OutboxService, type EventHandlers, type EventHandlerSet } from '@mate/server-kit';
import { NotificationMemberData } from '../member-data/notification-member-data';
import { PushEventHandlers } from '../push/push-event.handlers';

/**
 * Events notification-service consumes. Each runs inside the consumer's transaction, so the email
 * job written to the outbox here exists exactly once per event, however often the event arrives;
 * the push events are PushEventHandlers'.
 */
@Injectable()
export class NotificationEventHandlers implements EventHandlerSet {
  constructor(
    private readonly outbox: OutboxService,
    private readonly push: PushEventHandlers,
    private readonly memberData: NotificationMemberData,
  ) {}

  handlers(): EventHandlers {
    return {
      ...this.push.handlers(),
      // Told at the old address, so the owner hears of a change they did not make.
      'user.email_changed': async (payload, manager) => {
        await this.outbox.enqueueJob(manager, QueueName.Email, {
          template: 'email-changed-notice',
          to: payload.oldEmail,
          userId: payload.userId,
          name: null,
          vars: { newEmail: payload.newEmail },
        });
      },
      'user.deleted': (payload, manager) => this.memberData.erase(manager, payload.userId),
    };
  }
}
