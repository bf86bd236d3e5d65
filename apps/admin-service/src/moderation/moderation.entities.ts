import type { Type } from '@nestjs/common';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { MigrationInterface } from 'typeorm';
import { CreateModeration1797000000000 } from './migrations/1797000000000-CreateModeration';
import { AuditAuthorSnapshot1797200000000 } from './migrations/1797200000000-AuditAuthorSnapshot';

/**
 * One admin action (spec 001 §3 Audit log entry), written in the transaction of the command it
 * sends. Append-only: the database refuses UPDATE, DELETE and TRUNCATE (a trigger), except filling
 * in an author still unknown. The acting admin's name and email are kept as they were (issue 24);
 * a target's are read from their owners when the log is shown.
 */
@Entity({ name: 'audit_log' })
export class AuditLogRow {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  action!: string;

  @Column({ name: 'admin_id', type: 'uuid' })
  adminId!: string;

  @Column({ name: 'admin_name', type: 'text', nullable: true })
  adminName!: string | null;

  @Column({ name: 'admin_email', type: 'text', nullable: true })
  adminEmail!: string | null;

  @Column({ name: 'target_user_id', type: 'uuid', nullable: true })
  targetUserId!: string | null;

  @Column({ name: 'ip_address', type: 'text', nullable: true })
  ipAddress!: string | null;

  @Column({ name: 'user_agent', type: 'text', nullable: true })
  userAgent!: string | null;

  @Column({ name: 'resource_type', type: 'text' })
  resourceType!: string;

  @Column({ name: 'resource_id', type: 'text' })
  resourceId!: string;

  @Column({ type: 'jsonb' })
  details!: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

/** The one decision on a report or photo: its primary key keeps two admins from both deciding. */
@Entity({ name: 'moderation_decision' })
export class ModerationDecisionRow {
  @PrimaryColumn({ name: 'resource_type', type: 'text' })
  resourceType!: string;

  @PrimaryColumn({ name: 'resource_id', type: 'uuid' })
  resourceId!: string;

  @Column({ name: 'audit_id', type: 'uuid' })
  auditId!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

/** The moderation side's tables (audit log, decisions) and their migrations, oldest first. */
export const MODERATION_ENTITIES: Type<unknown>[] = [AuditLogRow, ModerationDecisionRow];
export const MODERATION_MIGRATIONS: Type<MigrationInterface>[] = [CreateModeration1797000000000, AuditAuthorSnapshot1797200000000];
