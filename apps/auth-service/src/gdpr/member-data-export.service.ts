import { HttpException, Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import {
  AuthErrorCode,
  AuthMessages,
  EXPORT_PART_SERVICES,
  GdprMessages,
  memberExportPath,
  type ExportPartName,
  type ExportParts,
  type MemberDataExport,
} from '@mate/contracts';
import { CLOCK, LOGGER, ServiceCallError, serviceUnavailable, ServiceClient, unauthorized, type Clock } from '@mate/server-kit';
import { AuthEnv } from '../auth.env';
import { AccountExporter } from './account-exporter';

/** The parts other services answer; the account part is read here. */
const REMOTE_PARTS = (Object.keys(EXPORT_PART_SERVICES) as ExportPartName[]).filter((part) => part !== 'account');

/**
 * `POST /api/gdpr/export`: one document from every service's part (issue 12). The parts are asked
 * for at once, each with its own timeout; the document is whole or not given at all, since a
 * member who downloads a partial export would take it for everything the product holds. The
 * member's export limit is counted before, by the guard (`@CountedPerMember` on the route).
 */
@Injectable()
export class MemberDataExportService {
  constructor(
    private readonly account: AccountExporter,
    private readonly services: ServiceClient,
    private readonly env: AuthEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async exportFor(userId: string): Promise<MemberDataExport> {
    const exportedAt = this.clock.now().toISOString();
    const timeoutMs = this.env.GDPR_EXPORT_PART_TIMEOUT_MS;
    const [account, ...remote] = await Promise.allSettled([
      this.account.exportMember(userId),
      ...REMOTE_PARTS.map((part) => this.part(part, userId, timeoutMs)),
    ]);
    // The account gone meanwhile (deleted in another tab): the session is over, not the export.
    if (account.status === 'rejected' && account.reason instanceof HttpException) {
      throw unauthorized(AuthMessages.authRequired, AuthErrorCode.AccountDeleted);
    }
    const failed = [
      ...(account.status === 'rejected' ? [{ part: 'account', reason: account.reason as unknown }] : []),
      ...remote.flatMap((r, i) => (r.status === 'rejected' ? [{ part: REMOTE_PARTS[i], reason: r.reason as unknown }] : [])),
    ];
    if (account.status === 'rejected' || failed.length > 0) {
      // Which service and why; never the member's data.
      this.logger.warn({ parts: failed.map(({ part, reason }) => ({ part, ...failureOf(reason) })) }, 'data export incomplete; refused');
      throw serviceUnavailable(undefined, GdprMessages.exportUnavailable);
    }
    const parts = Object.fromEntries(
      REMOTE_PARTS.map((part, i) => [part, (remote[i] as PromiseFulfilledResult<unknown>).value]),
    ) as Omit<ExportParts, 'account'>;
    return { format: 'mate-data-export', formatVersion: 1, userId, exportedAt, account: account.value, ...parts };
  }

  private async part(part: Exclude<ExportPartName, 'account'>, userId: string, timeoutMs: number): Promise<object> {
    const value = await this.services.get<unknown>(EXPORT_PART_SERVICES[part], memberExportPath(userId), { timeoutMs });
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UnreadablePartError();
    return value;
  }
}

/** A service answered 2xx with something that is not a part (no body, a list, a bare value). */
class UnreadablePartError extends Error {
  override readonly name = 'UnreadablePartError';
}

function failureOf(e: unknown): Record<string, unknown> {
  if (e instanceof ServiceCallError) return { service: e.service, failure: e.failure, status: e.status };
  return { failure: e instanceof Error ? e.name : 'unknown' };
}
