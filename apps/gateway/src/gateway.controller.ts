import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { HealthRegistry, Public } from '@mate/server-kit';

/** `GET /health`: the gateway's own readiness (Redis), for load balancers and `npm start`. Not part of the API docs. */
@ApiExcludeController()
@Controller()
export class GatewayController {
  constructor(private readonly health: HealthRegistry) {}

  @Public()
  @Get('health')
  async check(@Res() res: Response) {
    const { ok, checks } = await this.health.run();
    res.status(ok ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).json({ status: ok ? 'ok' : 'unavailable', checks });
  }
}
