import { Controller, Get, HttpStatus, Injectable, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../auth/decorators';

export type HealthCheck = () => Promise<void>;

/** Readiness checks registered by the modules a service uses (database, Redis, queues). */
@Injectable()
export class HealthRegistry {
  private readonly checks = new Map<string, HealthCheck>();
  register(name: string, check: HealthCheck) {
    this.checks.set(name, check);
  }
  async run(timeoutMs = 2000): Promise<{ ok: boolean; checks: Record<string, string> }> {
    const results: Record<string, string> = {};
    let ok = true;
    await Promise.all(
      [...this.checks.entries()].map(async ([name, check]) => {
        try {
          await Promise.race([
            check(),
            new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), timeoutMs).unref()),
          ]);
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
