import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { NotificationEnv } from '../notification.env';
import type { RenderedEmail } from './email-templates';

/** SMTP through nodemailer. Short timeouts: a hung server must fail the attempt, not the worker. */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly transport: Transporter;
  private readonly from: string;

  constructor(@Inject(NotificationEnv) env: NotificationEnv) {
    this.transport = createTransport({
      url: env.SMTP_URL,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    this.from = env.MAIL_FROM;
  }

  async send(to: string, email: RenderedEmail): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to,
      subject: email.subject,
      text: email.text,
      html: email.html,
    });
  }

  /** Connects and greets the server without sending anything. */
  async verify(): Promise<void> {
    await this.transport.verify();
  }

  onApplicationShutdown() {
    this.transport.close();
  }
}
