import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Queue } from 'bullmq';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { DEPLOYED_SERVICES, EVENT_CATALOGUE, eventQueueName, ROLE_ADMIN, type AuthPrincipal, type ServiceName } from '@mate/contracts';
import { createQueueConnection, LOGGER, queuePrefixOf, REDIS, SessionStore, type RedisClient } from '@mate/server-kit';
import { AdminEnv } from '../admin.env';
import { redactJobData } from './queue-redaction';

/** Where the dashboard is served (browser navigation; the gateway forwards it without a bearer token). */
export const QUEUE_DASHBOARD_PATH = '/admin/queues';
/** The one-time link's ticket lives this long (single use). */
export const QUEUE_TICKET_TTL_SECONDS = 60;
/** A dashboard session lasts this long after its last request (and never beyond the admin's session). */
export const QUEUE_DASHBOARD_IDLE_SECONDS = 30 * 60;
export const QUEUE_DASHBOARD_COOKIE = 'mate_queues';

export const QueueDashboardMessages = {
  badTicket: 'This dashboard link has expired or was already used; open the dashboard again from the admin app',
  noSession: 'Open the queue dashboard from the admin app',
  adminRequired: 'Admin access required',
} as const;

interface Binding {
  userId: string;
  sessionId: string;
}

/**
 * Every queue of every deployed service: each service's job queues (registry) and the
 * `events.<service>` queue of every service the event catalogue delivers to.
 */
export function dashboardQueueNames(): string[] {
  const deployed = new Set<ServiceName>(DEPLOYED_SERVICES.map((s) => s.name));
  const consumers = new Set<ServiceName>(Object.values(EVENT_CATALOGUE).flatMap((d) => d.consumers));
  const names = [
    ...DEPLOYED_SERVICES.flatMap((s) => s.queues),
    ...[...consumers].filter((c) => deployed.has(c)).map(eventQueueName),
  ];
  return [...new Set(names)].sort();
}

const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

function cookieOf(req: Request, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}

/**
 * The queue dashboard (@bull-board, read-only) for admins only. Browser navigation carries no
 * bearer token, so the admin app asks `POST /api/admin/queues/session` (bearer, admin) for a
 * one-time link; the link's ticket (Redis, 60 s, single use, bound to the admin's user and session)
 * is exchanged for an HttpOnly SameSite=Strict cookie (Path=/admin/queues) holding a random
 * dashboard session id, also in Redis and bound to the admin's session. Every dashboard request
 * needs that cookie AND the admin's session still alive with role admin.
 */
@Injectable()
export class QueueDashboard implements OnModuleInit, OnApplicationShutdown {
  private queues: Queue[] = [];
  private connection: RedisClient | null = null;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(REDIS) private readonly redis: RedisClient,
    private readonly sessions: SessionStore,
    @Inject(AdminEnv) private readonly env: AdminEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  private ticketKey(ticket: string) {
    return `${this.env.KEY_PREFIX}:admin:queues:ticket:${ticket}`;
  }

  private sessionKey(id: string) {
    return `${this.env.KEY_PREFIX}:admin:queues:session:${id}`;
  }

  /** A one-time link to the dashboard for this admin's session. */
  async openSession(admin: AuthPrincipal): Promise<{ url: string }> {
    const ticket = randomBytes(32).toString('base64url');
    const binding: Binding = { userId: admin.userId, sessionId: admin.sessionId };
    await this.redis.set(this.ticketKey(ticket), JSON.stringify(binding), 'EX', QUEUE_TICKET_TTL_SECONDS);
    return { url: `${QUEUE_DASHBOARD_PATH}/?ticket=${ticket}` };
  }

  onModuleInit() {
    const express = this.adapterHost.httpAdapter?.getInstance() as { use(path: string, ...handlers: unknown[]): void } | undefined;
    if (!express) return; // a one-off command (migrate): no HTTP server
    // Producers and workers use the same prefix for their BullMQ keys (queuePrefixOf: a hash tag per queue on a cluster).
    const connection = createQueueConnection(this.env);
    this.connection = connection;
    this.queues = dashboardQueueNames().map((name) => new Queue(name, { connection, prefix: queuePrefixOf(this.env, name) }));
    for (const q of this.queues) q.on('error', () => undefined);
    const board = new ExpressAdapter();
    board.setBasePath(QUEUE_DASHBOARD_PATH);
    createBullBoard({ queues: this.queues.map((q) => this.adapterOf(q)), serverAdapter: board });
    const router = board.getRouter() as (req: Request, res: Response, next: NextFunction) => void;
    express.use(QUEUE_DASHBOARD_PATH, (req: Request, res: Response, next: NextFunction) => {
      this.gate(req, res)
        .then((allowed) => {
          if (allowed) router(req, res, next);
        })
        .catch((e: unknown) => {
          this.logger.error({ error: e instanceof Error ? e.message : String(e) }, 'queue dashboard check failed');
          if (!res.headersSent) res.status(503).json({ error: 'The queue dashboard is unavailable right now' });
        });
    });
  }

  /** Read-only, and no job's data or result shows a secret (an email job's link is an account's key). */
  private adapterOf(queue: Queue): BullMQAdapter {
    const adapter = new BullMQAdapter(queue, { readOnlyMode: true });
    adapter.setFormatter('data', (data) => redactJobData(data));
    adapter.setFormatter('returnValue', (value) => redactJobData(value));
    return adapter;
  }

  async onApplicationShutdown() {
    await Promise.allSettled(this.queues.map((q) => q.close()));
    this.connection?.disconnect();
  }

  /** True when the request may reach the dashboard; otherwise it has been answered. */
  private async gate(req: Request, res: Response): Promise<boolean> {
    const refuse = (status: number, error: string) => {
      res.status(status).json({ error });
      return false;
    };
    const ticket = typeof req.query['ticket'] === 'string' ? req.query['ticket'] : null;
    if (ticket !== null) {
      const raw = COOKIE_VALUE.test(ticket) ? await this.redis.getdel(this.ticketKey(ticket)) : null;
      if (!raw) return refuse(401, QueueDashboardMessages.badTicket);
      const binding = JSON.parse(raw) as Binding;
      if (!(await this.adminSessionAlive(binding))) return refuse(403, QueueDashboardMessages.adminRequired);
      const id = randomBytes(32).toString('base64url');
      await this.redis.set(this.sessionKey(id), raw, 'EX', QUEUE_DASHBOARD_IDLE_SECONDS);
      res.cookie(QUEUE_DASHBOARD_COOKIE, id, {
        httpOnly: true,
        sameSite: 'strict',
        path: QUEUE_DASHBOARD_PATH,
        secure: this.env.NODE_ENV === 'production',
        maxAge: QUEUE_DASHBOARD_IDLE_SECONDS * 1000,
      });
      res.redirect(303, `${QUEUE_DASHBOARD_PATH}/`); // the ticket leaves the address bar and the history
      return false;
    }
    const id = cookieOf(req, QUEUE_DASHBOARD_COOKIE);
    const raw = id && COOKIE_VALUE.test(id) ? await this.redis.get(this.sessionKey(id)) : null;
    if (!id || !raw) return refuse(401, QueueDashboardMessages.noSession);
    if (!(await this.adminSessionAlive(JSON.parse(raw) as Binding))) {
      await this.redis.del(this.sessionKey(id));
      return refuse(401, QueueDashboardMessages.noSession);
    }
    await this.redis.expire(this.sessionKey(id), QUEUE_DASHBOARD_IDLE_SECONDS);
    return true;
  }

  /**
   * The admin's own session is still alive (not signed out, revoked or expired) and has role admin.
   * Peeked, not touched: the dashboard's polls must not keep the admin's session alive for ever.
   */
  private async adminSessionAlive(binding: Binding): Promise<boolean> {
    const session = await this.sessions.peek(binding.sessionId, binding.userId);
    return session?.role === ROLE_ADMIN;
  }
}
