import { Module } from '@nestjs/common';
import { EmailDeliveryRepository } from './emails.repository';
import { EmailsService } from './emails.service';
import { EmailWorker } from './emails.worker';
import { Mailer } from './mailer';

/** Email delivery: the worker of the email queue, rendering, SMTP and the delivery log. */
@Module({
  providers: [Mailer, EmailDeliveryRepository, EmailsService, EmailWorker],
  exports: [EmailsService, EmailDeliveryRepository, EmailWorker],
})
export class EmailsModule {}
