import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EmailJobData } from '@mate/contracts';
import { LOGGER } from '@mate/server-kit';
import { EmailRenderError, renderEmail } from './email-templates';
import { EmailDeliveryRepository } from './emails.repository';
import { Mailer } from './mailer';

export interface EmailDeliveryRequest {
  /** Identifies the job across its attempts. */
  jobKey: string;
  data: EmailJobData;
  /** 1 for the first attempt. */
  attempt: number;
  maxAttempts: number;
}

export type DeliveryOutcome = 'sent' | 'already-sent' | 'member-erased';

/** The failure of one attempt; `final` when no attempt is left or retrying cannot help. */
export class EmailDeliveryError extends Error {
  constructor(
    message: string,
    readonly final: boolean,
    cause: unknown,
  ) {
    super(message, { cause });
  }
}

/** Renders an email job, sends it and keeps the delivery log. */
@Injectable()
export class EmailsService {
  constructor(
    private readonly deliveries: EmailDeliveryRepository,
    private readonly mailer: Mailer,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async deliver(request: EmailDeliveryRequest): Promise<DeliveryOutcome> {
    const { jobKey, data, attempt, maxAttempts } = request;
    const start = await this.deliveries.startAttempt({
      jobKey,
      template: data.template,
      to: data.to,
      userId: typeof data.userId === 'string' ? data.userId.toLowerCase() : null,
      attempt,
    });
    // The log (never the job data: it carries the link and its token) says what happened.
    const context = { jobKey, template: data.template, attempt };
    if (start === 'already-sent') {
      this.logger.info(context, 'email already sent; skipping the redelivered job');
      return 'already-sent';
    }
    if (start === 'member-erased') {
      this.logger.info(context, 'email about a deleted account dropped');
      return 'member-erased';
    }
    const deliveryId = start.id;
    try {
      await this.mailer.send(data.to, renderEmail(data));
    } catch (e) {
      const final = e instanceof EmailRenderError || attempt >= maxAttempts;
      const message = describeError(e);
      await this.deliveries.markFailed(deliveryId, message, final);
      this.logger.warn(
        { ...context, error: message, final },
        final ? 'email failed' : 'email attempt failed; will retry',
      );
      throw new EmailDeliveryError(message, final, e);
    }
    await this.deliveries.markSent(deliveryId);
    this.logger.info(context, 'email sent');
    return 'sent';
  }
}

function describeError(e: unknown): string {
  const err = e as { code?: unknown; responseCode?: unknown; message?: unknown };
  const code = [err?.code, err?.responseCode].filter((x) => x !== undefined && x !== null).join(' ');
  const message = typeof err?.message === 'string' ? err.message : String(e);
  return code ? `${code}: ${message}` : message;
}
