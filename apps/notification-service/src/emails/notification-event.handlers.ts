import { Injectable } from '@nestjs/common';
import { QueueName } from '@mate/contracts';
import { OutboxService, type EventHandlers, type EventHandlerSet } from '@mate/server-kit';

/**
 * Events notification-service consumes. Each runs inside the consumer's transaction, so the email
 * job written to the outbox here exists exactly once per event, however often the event arrives.
 */
@Injectable()
export class NotificationEventHandlers implements EventHandlerSet {
  constructor(private readonly outbox: OutboxService) {}

  handlers(): EventHandlers {
    return {
      // Told at the old address, so the owner hears of a change they did not make.
      'user.email_changed': async (payload, manager) => {
        await this.outbox.enqueueJob(manager, QueueName.Email, {
          template: 'email-changed-notice',
          to: payload.oldEmail,
          name: null,
          vars: { newEmail: payload.newEmail },
        });
      },
    };
  }
}
