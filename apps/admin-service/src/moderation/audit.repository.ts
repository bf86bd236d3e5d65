import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuditAction, AuditResourceType } from '@mate/contracts';

/** An audit entry as stored. */
export interface AuditRow {
  id: string;
  action: AuditAction;
  admin_id: string;
  admin_name: string | null;
  admin_email: string | null;
  target_user_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  resource_type: AuditResourceType;
  resource_id: string;
  details: Record<string, unknown>;
  created_at: Date;
}

/** The audit log's filters; null leaves a filter out. */
export interface AuditFilter {
  action: AuditAction | null;
  /** From this moment on. */
  from: Date | null;
  /** Before this moment. */
  until: Date | null;
  /** An ILIKE pattern matched against the kept author, the resource id and the details. */
  pattern: string | null;
  /** Members (as author or target) the search matched in auth; read only with a pattern. */
  people: string[];
}

/** A new entry: the actor's and the action's columns. */
export interface NewAuditEntry {
  id: string;
  action: AuditAction;
  adminId: string;
  adminName: string | null;
  adminEmail: string | null;
  targetUserId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  resourceType: AuditResourceType;
  resourceId: string;
  details: Record<string, unknown>;
}

const AUDIT_FILTER = `($1::text IS NULL OR action = $1)
      AND ($2::timestamptz IS NULL OR created_at >= $2)
      AND ($3::timestamptz IS NULL OR created_at < $3)
      AND ($4::text IS NULL OR admin_id = ANY($5::uuid[]) OR target_user_id = ANY($5::uuid[])
           OR admin_name ILIKE $4 OR admin_email ILIKE $4 OR resource_id ILIKE $4 OR details::text ILIKE $4)`;

const AUDIT_PAGE = `SELECT * FROM audit_log WHERE ${AUDIT_FILTER} ORDER BY created_at DESC, id DESC LIMIT $6 OFFSET $7`;

const AUDIT_COUNT = `SELECT count(*)::int AS total FROM audit_log WHERE ${AUDIT_FILTER}`;

const INSERT_ENTRY = `INSERT INTO audit_log (id, action, admin_id, admin_name, admin_email, target_user_id, ip_address, user_agent, resource_type, resource_id, details)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb)`;

/** A concurrent insert of the same key waits for the other transaction; once it commits this one inserts nothing. */
const TAKE_DECISION = `INSERT INTO moderation_decision (resource_type, resource_id, audit_id) VALUES ($1, $2, $3)
           ON CONFLICT DO NOTHING RETURNING audit_id`;

const ADMINS_WITHOUT_AUTHOR = 'SELECT DISTINCT admin_id FROM audit_log WHERE admin_name IS NULL AND admin_email IS NULL';

const FILL_AUTHOR = `UPDATE audit_log SET admin_name = $2, admin_email = $3
          WHERE admin_id = $1 AND admin_name IS NULL AND admin_email IS NULL RETURNING id`;

/** The audit log and the one decision per moderated resource (spec 001 §2). */
@Injectable()
export class AuditRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A page of entries, newest first (id breaks ties), and how many match. */
  async page(filter: AuditFilter, limit: number, offset: number): Promise<{ rows: AuditRow[]; total: number }> {
    const params = [filter.action, filter.from, filter.until, filter.pattern, filter.people];
    const [rows, count] = await Promise.all([
      this.dataSource.query(AUDIT_PAGE, [...params, limit, offset]) as Promise<AuditRow[]>,
      this.dataSource.query(AUDIT_COUNT, params) as Promise<{ total: number }[]>,
    ]);
    return { rows, total: count[0]?.total ?? 0 };
  }

  async insert(manager: EntityManager, entry: NewAuditEntry): Promise<void> {
    await manager.query(INSERT_ENTRY, [
      entry.id,
      entry.action,
      entry.adminId,
      entry.adminName,
      entry.adminEmail,
      entry.targetUserId,
      entry.ipAddress,
      entry.userAgent,
      entry.resourceType,
      entry.resourceId,
      JSON.stringify(entry.details),
    ]);
  }

  /** The resource's one decision, taken by this entry; false when another entry took it. */
  async takeDecision(manager: EntityManager, resourceType: AuditResourceType, resourceId: string, auditId: string): Promise<boolean> {
    const taken: unknown[] = await manager.query(TAKE_DECISION, [resourceType, resourceId, auditId]);
    return taken.length > 0;
  }

  /** Admins with entries written without their author. */
  async adminsWithoutAuthor(): Promise<string[]> {
    const rows: { admin_id: string }[] = await this.dataSource.query(ADMINS_WITHOUT_AUTHOR);
    return rows.map((r) => r.admin_id);
  }

  /** Gives the admin's entries without an author this one; answers how many it filled. */
  async fillAuthor(adminId: string, name: string | null, email: string | null): Promise<number> {
    // TypeORM answers an UPDATE ... RETURNING on PostgreSQL as [rows, count].
    const [filled] = (await this.dataSource.query(FILL_AUTHOR, [adminId, name, email])) as [unknown[], number];
    return filled.length;
  }
}
