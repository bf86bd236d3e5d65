import { randomUUID } from 'node:crypto';
import { createParamDecorator, Inject, Injectable, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';
import {
  AUDIT_OUTCOME_REFUSED,
  type AdminCommandResultDto,
  type AdminErrorCode,
  type AuditAction,
  type AuditResourceType,
  type AuthPrincipal,
  type JobPayloads,
  type QueueName,
} from '@mate/contracts';
import { conflict, LOGGER, OutboxService } from '@mate/server-kit';
import { AdminEnv } from '../admin.env';
import { AuditRepository } from './audit.repository';
import { People, type Person } from './people';

/** The longest user agent an audit entry keeps. */
export const AUDIT_USER_AGENT_MAX_LENGTH = 512;
/** How often a mutating call looks whether its command has been carried out. */
const COMMAND_POLL_MS = 25;

/** Who does an admin action, from where (the audit entry's admin, IP and user agent). */
export interface AdminActor {
  adminId: string;
  ipAddress: string | null;
  userAgent: string | null;
}

/** The acting admin of the request: the session's user, the client address (kit's trusted `req.ip`), the user agent (bounded). */
export const Actor = createParamDecorator((_data: unknown, ctx: ExecutionContext): AdminActor => {
  const req = ctx.switchToHttp().getRequest<Request & { user: AuthPrincipal }>();
  const agent = req.headers['user-agent'];
  return {
    adminId: req.user.userId.toLowerCase(),
    ipAddress: req.ip ?? null,
    userAgent: typeof agent === 'string' && agent !== '' ? agent.slice(0, AUDIT_USER_AGENT_MAX_LENGTH) : null,
  };
});

/** What an audit entry says of the action (the actor and the time are added when it is written). */
export interface AuditEntry {
  action: AuditAction;
  targetUserId: string | null;
  resourceType: AuditResourceType;
  resourceId: string;
  details: Record<string, unknown>;
}

export interface AuditedCommand<Q extends QueueName> extends AuditEntry {
  /** Takes the one decision on this resource (a report, a photo): another admin's concurrent or later one is refused with this 409. */
  decision?: { error: string; code: AdminErrorCode };
  queue: Q;
  job: JobPayloads[Q];
}

/** What a mutating call answers: 200 once applied, 202 while the owner has not carried it out yet. */
export interface CommandOutcome {
  status: 200 | 202;
  body: AdminCommandResultDto;
}

/**
 * The one way an admin changes anything: the audit entry, the decision guard and the command job
 * written to the outbox in ONE transaction (nothing done unaudited, nothing audited undone), then
 * a wait of up to ADMIN_COMMAND_WAIT_MS for the owning service's worker to complete the job
 * (its BullMQ job id is the outbox row id).
 */
@Injectable()
export class AuditedCommands {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditRepository,
    private readonly outbox: OutboxService,
    @Inject(AdminEnv) private readonly env: AdminEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly people: People,
  ) {}

  async run<Q extends QueueName>(actor: AdminActor, command: AuditedCommand<Q>): Promise<CommandOutcome> {
    const auditId = randomUUID();
    const author = await this.author(actor);
    const jobId = await this.dataSource.transaction(async (manager) => {
      await this.writeEntry(manager, auditId, actor, author, command);
      if (command.decision !== undefined) {
        // A concurrent decision on the same resource waits for the other transaction, then takes nothing.
        if (!(await this.audit.takeDecision(manager, command.resourceType, command.resourceId, auditId))) {
          throw conflict(command.decision.error, command.decision.code);
        }
      }
      return this.outbox.enqueueJob(manager, command.queue, command.job);
    });
    this.logger.info({ action: command.action, adminId: actor.adminId, auditId, resourceType: command.resourceType }, 'admin command written');
    const applied = await this.waitForCompletion(command.queue, jobId);
    return { status: applied ? 200 : 202, body: { applied, auditId } };
  }

  /**
   * An attempt the service refuses (issue 24: an admin account as a target), recorded before the
   * refusal is answered: its entry, with `details.outcome` 'refused' and the reason, and no command.
   */
  async refuse(actor: AdminActor, entry: AuditEntry, error: string): Promise<string> {
    const auditId = randomUUID();
    const author = await this.author(actor);
    await this.writeEntry(this.dataSource.manager, auditId, actor, author, {
      ...entry,
      details: { ...entry.details, outcome: AUDIT_OUTCOME_REFUSED, error },
    });
    this.logger.warn({ action: entry.action, adminId: actor.adminId, auditId, resourceType: entry.resourceType }, 'admin command refused');
    return auditId;
  }

  /**
   * The acting admin's name and email now, kept with the entry: the trail keeps its author after
   * the account is gone (issue 24). Unknown when auth and profile did not answer (nulls; filled
   * later by AuditAuthorBackfill while the account still exists).
   */
  private async author(actor: AdminActor): Promise<Person> {
    return (await this.people.lookUp([actor.adminId]))(actor.adminId);
  }

  private async writeEntry(manager: EntityManager, auditId: string, actor: AdminActor, author: Person, entry: AuditEntry): Promise<void> {
    await this.audit.insert(manager, {
      id: auditId,
      action: entry.action,
      adminId: actor.adminId,
      adminName: author.name,
      adminEmail: author.email,
      targetUserId: entry.targetUserId,
      ipAddress: actor.ipAddress,
      userAgent: actor.userAgent,
      resourceType: entry.resourceType,
      resourceId: entry.resourceId,
      details: entry.details,
    });
  }

  /** True once the job completed within ADMIN_COMMAND_WAIT_MS; false when it did not (yet), or failed (retried by the outbox's redrive). */
  private async waitForCompletion(queue: QueueName, jobId: string): Promise<boolean> {
    const deadline = Date.now() + this.env.ADMIN_COMMAND_WAIT_MS;
    for (;;) {
      try {
        const state = await this.outbox.queue(queue).getJobState(jobId);
        if (state === 'completed') return true;
        if (state === 'failed') return false; // out of attempts or unrecoverable: waiting longer changes nothing
      } catch {
        return false; // Redis away: the command is durable in the outbox all the same
      }
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, COMMAND_POLL_MS));
    }
  }
}
