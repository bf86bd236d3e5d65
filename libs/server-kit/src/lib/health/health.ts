import { Controller, Get, HttpStatus, Injectable, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import type { RedisClient } from '../redis/redis';
import type { Worker } from 'bullmq';
import { Public } from '../auth/decorators';
import { withTimeout } from '../timeout';

export type HealthCheck = () => Promise<void>;

/**
 * A Redis connection is up: ready, and answering a PING. The status is read first because a
 * BullMQ connection (maxRetriesPerRequest: null) would hold a PING until Redis returns.
 */
export function redisConnectionCheck(connection: RedisClient): HealthCheck {
  return async () => {
    if (connection.status !== 'ready') throw new Error(`connection ${connection.status}`);
    await connection.ping();
  };
}

/**
 * A BullMQ worker this replica should be running is running and its connection is up. `worker`
 * is read on every check (it is created on start and dropped on stop); a replica started with
 * WORKERS=off should not register the check at all.
 */
export function workerCheck(worker: () => Worker | null | undefined): HealthCheck {
  return async () => {
    const current = worker();
    if (!current || !current.isRunning()) throw new Error('worker not running');
    await redisConnectionCheck((await current.getBackend().client) as unknown as RedisClient)();
  };
}

const workerCheckName = (queue: string) => `queue:${queue}`;

/** Readiness checks registered by the modules a service uses (database, Redis, queues). */
@Injectable()
export class HealthRegistry {
  private readonly checks = new Map<string, HealthCheck>();
  register(name: string, check: HealthCheck) {
    this.checks.set(name, check);
  }
  /** `queue:<name>` is ready while the worker consuming that queue runs (see workerCheck). */
  registerWorker(queue: string, worker: () => Worker | null | undefined) {
    this.register(workerCheckName(queue), workerCheck(worker));
  }
  /** A worker stopped on purpose (shutdown): its queue leaves readiness. */
  unregisterWorker(queue: string) {
    this.unregister(workerCheckName(queue));
  }
  unregister(name: string) {
    this.checks.delete(name);
  }
  async run(timeoutMs = 2000): Promise<{ ok: boolean; checks: Record<string, string> }> {
    const results: Record<string, string> = {};
    let ok = true;
    await Promise.all(
      [...this.checks.entries()].map(async ([name, check]) => {
        try {
          await withTimeout(check(), timeoutMs, 'timed out');
          results[name] = 'up';
        } catch (e) {
          ok = false;
          results[name] = `down: ${(e as Error).message}`;
        }
      }),
    );
    return { ok, checks: results };
  }
}

/** Probes for the orchestrator, not part of the API: left out of the OpenAPI documents. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(private readonly registry: HealthRegistry) {}

  @Public()
  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @Public()
  @Get('ready')
  async ready(@Res() res: Response) {
    const { ok, checks } = await this.registry.run();
    res.status(ok ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).json({ status: ok ? 'ok' : 'unavailable', checks });
  }
}
