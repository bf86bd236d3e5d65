import { Injectable } from '@nestjs/common';
import { AdminErrorCode, ADMIN_USER_SEARCH_MAX_LIMIT, ADMIN_USER_SEARCH_QUERY_MAX_LENGTH, type AuditLogPageDto } from '@mate/contracts';
import { badRequest } from '@mate/server-kit';
import { AuditRepository, type AuditRow } from './audit.repository';
import type { AuditQueryDto } from './dto/moderation-requests.dto';
import { OwnersClient } from './owners.client';
import { People } from './people';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 3600 * 1000;

/** `%`, `_` and `\` taken literally in an ILIKE pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The audit log, newest first, with its filters (spec 001 §2 Audit logs). */
@Injectable()
export class AuditService {
  constructor(
    private readonly audit: AuditRepository,
    private readonly owners: OwnersClient,
    private readonly people: People,
  ) {}

  async page(query: AuditQueryDto): Promise<AuditLogPageDto> {
    const from = query.startDate ? new Date(query.startDate) : null;
    // A date alone means the whole of that day (UTC); a moment means up to and including it.
    const until = query.endDate ? new Date(new Date(query.endDate).getTime() + (DATE_ONLY.test(query.endDate) ? DAY_MS : 1)) : null;
    if ((from && Number.isNaN(from.getTime())) || (until && Number.isNaN(until.getTime()))) throw badRequest('startDate and endDate must be dates');
    if (from && until && from >= until) throw badRequest('startDate must be before endDate', AdminErrorCode.DateRangeOrder);
    let pattern: string | null = null;
    let people: string[] = [];
    if (query.search) {
      pattern = `%${likeLiteral(query.search)}%`;
      // Names and emails live in auth: the members whose name or email matches (none when auth is away).
      const hits = await this.owners.searchAccounts(query.search.slice(0, ADMIN_USER_SEARCH_QUERY_MAX_LENGTH), ADMIN_USER_SEARCH_MAX_LIMIT);
      people = hits.ok ? hits.value.map((h) => h.id) : [];
    }
    const { rows, total } = await this.audit.page(
      { action: query.action ?? null, from, until, pattern, people },
      query.limit,
      query.offset,
    );
    const person = await this.people.lookUp(rows.flatMap((r) => [r.admin_id, r.target_user_id]));
    // The author as they were when they acted (kept with the entry); the owners' answer only for an entry without it.
    const author = (r: AuditRow) => {
      const now = person(r.admin_id);
      return { id: r.admin_id, name: r.admin_name ?? now.name, email: r.admin_email ?? now.email, deleted: now.deleted };
    };
    return {
      logs: rows.map((r) => ({
        id: r.id,
        action: r.action,
        admin: author(r),
        targetUser: r.target_user_id ? { id: r.target_user_id, ...person(r.target_user_id) } : null,
        createdAt: r.created_at.toISOString(),
        ipAddress: r.ip_address,
        userAgent: r.user_agent,
        targetResourceType: r.resource_type,
        targetResourceId: r.resource_id,
        details: r.details,
      })),
      total,
      limit: query.limit,
      offset: query.offset,
    };
  }
}
