import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import {
  INTERNAL_ADMIN_PATHS,
  SERVICES,
  type AdminAccountPart,
  type AdminAccountStatsPart,
  type AdminAccountSummaryPart,
  type AdminPhotoPart,
  type AdminProfilePart,
  type AdminProfileSummaryPart,
  type AdminStatsDto,
  type PendingPhotosPart,
  type SafetyReportDetailPart,
  type SafetyReportsPagePart,
  type ServiceName,
} from '@mate/contracts';
import { LOGGER, ServiceCallError, ServiceClient, type ServiceQuery } from '@mate/server-kit';
import { AdminEnv } from '../admin.env';

/** What one internal call gave: its answer, or why not (404 told apart: the thing does not exist). */
export type Part<T> = { ok: true; value: T } | { ok: false; notFound: boolean };

/** Ids per batch call (the owners accept at most 200). */
const BATCH = 200;

/**
 * The typed internal calls admin-service makes to the owners of what admins see (auth, profile,
 * matching, safety; libs/contracts admin.ts INTERNAL_ADMIN_PATHS), each with ADMIN_PART_TIMEOUT_MS.
 * A call never throws: a failure is a Part that is not ok (logged with the service and path only).
 */
@Injectable()
export class OwnersClient {
  constructor(
    private readonly client: ServiceClient,
    @Inject(AdminEnv) private readonly env: AdminEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  account(userId: string): Promise<Part<AdminAccountPart>> {
    return this.get(SERVICES.auth, INTERNAL_ADMIN_PATHS.account(userId));
  }

  async accounts(ids: string[]): Promise<Part<AdminAccountSummaryPart[]>> {
    return this.batched(ids, (chunk) => this.get<AdminAccountSummaryPart[]>(SERVICES.auth, INTERNAL_ADMIN_PATHS.accounts, { ids: chunk.join(',') }));
  }

  searchAccounts(q: string, limit: number): Promise<Part<AdminAccountSummaryPart[]>> {
    return this.get(SERVICES.auth, INTERNAL_ADMIN_PATHS.accountSearch, { q, limit });
  }

  accountStats(): Promise<Part<AdminAccountStatsPart>> {
    return this.get(SERVICES.auth, INTERNAL_ADMIN_PATHS.accountStats);
  }

  profile(userId: string): Promise<Part<AdminProfilePart>> {
    return this.get(SERVICES.profile, INTERNAL_ADMIN_PATHS.profile(userId));
  }

  async profiles(ids: string[]): Promise<Part<AdminProfileSummaryPart[]>> {
    return this.batched(ids, (chunk) => this.get<AdminProfileSummaryPart[]>(SERVICES.profile, INTERNAL_ADMIN_PATHS.profiles, { ids: chunk.join(',') }));
  }

  pendingPhotos(): Promise<Part<PendingPhotosPart>> {
    return this.get(SERVICES.profile, INTERNAL_ADMIN_PATHS.pendingPhotos);
  }

  photo(photoId: string): Promise<Part<AdminPhotoPart>> {
    return this.get(SERVICES.profile, INTERNAL_ADMIN_PATHS.photo(photoId));
  }

  matchingMember(userId: string): Promise<Part<{ matchCount: number }>> {
    return this.get(SERVICES.matching, INTERNAL_ADMIN_PATHS.matchingMember(userId));
  }

  reports(query: ServiceQuery): Promise<Part<SafetyReportsPagePart>> {
    return this.get(SERVICES.safety, INTERNAL_ADMIN_PATHS.reports, query);
  }

  report(reportId: string): Promise<Part<SafetyReportDetailPart>> {
    return this.get(SERVICES.safety, INTERNAL_ADMIN_PATHS.report(reportId));
  }

  safetyMember(userId: string): Promise<Part<{ reportsMade: number; reportsReceived: number }>> {
    return this.get(SERVICES.safety, INTERNAL_ADMIN_PATHS.safetyMember(userId));
  }

  safetyStats(): Promise<Part<AdminStatsDto['reports']>> {
    return this.get(SERVICES.safety, INTERNAL_ADMIN_PATHS.safetyStats);
  }

  private async batched<T>(ids: string[], call: (chunk: string[]) => Promise<Part<T[]>>): Promise<Part<T[]>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return { ok: true, value: [] };
    const chunks: string[][] = [];
    for (let i = 0; i < unique.length; i += BATCH) chunks.push(unique.slice(i, i + BATCH));
    const parts = await Promise.all(chunks.map(call));
    const value: T[] = [];
    for (const part of parts) {
      if (!part.ok) return part;
      value.push(...part.value);
    }
    return { ok: true, value };
  }

  private async get<T>(service: ServiceName, path: string, query?: ServiceQuery): Promise<Part<T>> {
    try {
      const value = await this.client.get<T>(service, path, { timeoutMs: this.env.ADMIN_PART_TIMEOUT_MS, query });
      return { ok: true, value };
    } catch (e) {
      if (e instanceof ServiceCallError) {
        if (e.failure === 'status' && e.status === 404) return { ok: false, notFound: true };
        this.logger.warn({ service, failure: e.failure, status: e.status, path: e.path.replace(/[0-9a-f-]{36}/gi, ':id') }, 'admin part unavailable');
        return { ok: false, notFound: false };
      }
      this.logger.warn({ service, err: e instanceof Error ? e.message : String(e) }, 'admin part failed');
      return { ok: false, notFound: false };
    }
  }
}
