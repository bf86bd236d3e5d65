import { Body, Controller, Get, HttpCode, Inject, Module, Param, Post, Query, Req } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsArray, IsEmail, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import type { Request } from 'express';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { SERVICES } from '@mate/contracts';
import { Public } from '../../auth/decorators';
import { DatabaseEnv, SERVICE_ENV } from '../../config/config';
import { RateLimits } from '../../rate-limit/rate-limit';
import { RealtimeModule } from '../../realtime/realtime.module';
import { REDIS } from '../../redis/redis';
import { ServiceModule } from '../../service.module';

/** How many sign-ins one address may try per minute on the probe service. */
export const PROBE_SIGN_INS_PER_MINUTE = 3;

class AddressDto {
  @IsOptional() @IsString() @MaxLength(100) city?: string;
}

export class ProbeSignInDto {
  @IsEmail({}, { message: 'Please enter a valid email address' }) email!: string;
  @IsOptional() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
}

export class ProbeNoteDto {
  @IsString() @MaxLength(500) text!: string;
  @IsOptional() @IsArray() @IsString({ each: true }) tags?: string[];
  @IsOptional() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
}

/**
 * A service's sign-in in miniature: a per-address limit keyed by `req.ip`, as auth-service's
 * login is, and an answer that shows what the handler saw.
 */
@Controller('api/probe')
class ProbeController {
  private readonly limits: RateLimits<'signIn'>;

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(SERVICE_ENV) env: DatabaseEnv,
    private readonly db: DataSource,
  ) {
    this.limits = new RateLimits(redis, env.KEY_PREFIX, { signIn: { points: PROBE_SIGN_INS_PER_MINUTE, durationSeconds: 60 } });
  }

  @Public()
  @Post('sign-in')
  @HttpCode(200)
  async signIn(@Req() req: Request, @Body() body: ProbeSignInDto) {
    await this.limits.consume('signIn', req.ip ?? '');
    return { ip: req.ip, protocol: req.protocol, headers: req.headers, email: body.email };
  }

  @Public()
  @Get('items/:id')
  item(@Param('id') id: string) {
    return { id };
  }

  /** Text from the path, the query and the body straight into PostgreSQL, as a search or a note is. */
  @Public()
  @Get('items/:id/notes')
  async notes(@Param('id') id: string, @Query('q') q?: string) {
    const [row] = (await this.db.query('SELECT $1::text AS id, $2::text AS q', [id, q ?? null])) as { id: string; q: string | null }[];
    return row;
  }

  @Public()
  @Post('items/:id/notes')
  @HttpCode(200)
  async addNote(@Param('id') id: string, @Body() body: ProbeNoteDto) {
    const [row] = (await this.db.query('SELECT $1::text AS id, $2::jsonb AS note', [id, JSON.stringify(body)])) as { id: string; note: unknown }[];
    return row;
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

/** A service built as every service is, with realtime (the internal route) and the probe routes. */
export const probeService = (env?: Partial<Record<string, string>>) =>
  ServiceModule.forRoot({
    service: SERVICES.notification,
    envClass: DatabaseEnv,
    env,
    entities: [],
    migrations: [],
    features: [ProbeModule, RealtimeModule.forRoot()],
  });
