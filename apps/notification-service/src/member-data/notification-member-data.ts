import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { NotificationsExportPart } from '@mate/contracts';
import { eraseMemberTraces, type MemberExporter } from '@mate/server-kit';
import { PushRateLimiter } from '../push/push-rate-limits';
import { PushRepository } from '../push/push.repository';
import { EmailDeliveryRepository } from '../emails/emails.repository';

/**
 * The member's notification data (issue 12, docs/adr/0016-member-data.md): their preferences and
 * devices in an export (a device as its push service's origin and dates, never its keys), and
 * everything of theirs erased on `user.deleted`.
 * Emails: the delivery log names the account an email was about (jobs carry its id since issue
 * 12); the export lists them (template, address, status, time) and the erasure deletes them.
 * Emails logged before that named no account and are not found by id (see the README).
 */
@Injectable()
export class NotificationMemberData implements MemberExporter<NotificationsExportPart> {
  constructor(
    private readonly repository: PushRepository,
    private readonly emails: EmailDeliveryRepository,
    private readonly rateLimits: PushRateLimiter,
    private readonly dataSource: DataSource,
  ) {}

  async exportMember(userId: string): Promise<NotificationsExportPart> {
    const id = userId.toLowerCase();
    const [preferences, subscriptions, emails] = await Promise.all([
      this.repository.preferencesOf(id, this.dataSource),
      this.repository.subscriptionsOf(id, this.dataSource),
      this.emails.findByMember(id),
    ]);
    return {
      preferences,
      subscriptions: subscriptions.map((s) => ({
        endpointOrigin: originOf(s.endpoint),
        createdAt: s.createdAt.toISOString(),
        lastUsedAt: s.lastUsedAt ? s.lastUsedAt.toISOString() : null,
      })),
      emails: emails.map((e) => ({ template: e.template, to: e.to, status: e.status, createdAt: e.createdAt.toISOString() })),
    };
  }

  /**
   * `user.deleted`: every row of the member, then the kit's traces (idempotent). `id` as the
   * consumer read it from the event (a UUID, lower case).
   */
  async erase(manager: EntityManager, id: string): Promise<void> {
    await this.repository.eraseMember(manager, id);
    await this.emails.eraseMember(manager, id);
    await eraseMemberTraces(manager, id);
    // Redis is not in the transaction: a failure here retries the whole (idempotent) erasure.
    await this.rateLimits.forget(id);
  }
}

function originOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'unknown';
  }
}
