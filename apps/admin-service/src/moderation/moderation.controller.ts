import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Injectable, Param, Patch, Post, Query, Res, UseInterceptors, type PipeTransform } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiHeader, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import type { Response } from 'express';
import {
  ROLE_ADMIN,
  type AdminCommandResultDto,
  type AdminReportDetailDto,
  type AdminReportDto,
  type AdminStatsDto,
  type AdminUserDetailDto,
  type AdminUserSummaryDto,
  type AuditLogPageDto,
  type AuthPrincipal,
  type PendingPhotosResponseDto,
} from '@mate/contracts';
import { ApiErrors, badRequest, CurrentUser, EmptyBodyPipe, MemberIdPipe, Roles, UnavailableInterceptor } from '@mate/server-kit';
import { Actor, type AdminActor, type CommandOutcome } from './audited-command';
import { AuditService } from './audit.service';
import {
  AuditQueryDto,
  RejectPhotoBodyDto,
  ReportsQueryDto,
  SuspendUserBodyDto,
  UpdateReportBodyDto,
  UserSearchQueryDto,
} from './dto/moderation-requests.dto';
import {
  AdminCommandResultResponseDto,
  AdminReportDetailResponseDto,
  AdminReportResponseDto,
  AdminStatsResponseDto,
  AdminUserDetailResponseDto,
  AdminUserSummaryResponseDto,
  AuditLogPageResponseDto,
  PendingPhotosResponseBodyDto,
} from './dto/moderation-responses.dto';
import { AdminPhotosService } from './photos.service';
import { QueueDashboard } from './queues.service';
import { AdminReportsService } from './reports.service';
import { AdminStatsService } from './stats.service';
import { AdminUsersService } from './users.service';

/** Both readings of the admin API base (spec 001 §7): every admin route answers under each. */
export const ADMIN_CONTROLLER_PATHS = ['admin', 'api/admin'];

/** A report's or photo's id in a path (lower case); not a UUID: 400 'id must be a UUID'. */
@Injectable()
export class ResourceIdPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (typeof value !== 'string' || !isUUID(value)) throw badRequest('id must be a UUID');
    return value.toLowerCase();
  }
}

/** 200 once applied, 202 while the owner has yet to carry it out. */
function answer(res: Response, outcome: CommandOutcome): AdminCommandResultDto {
  res.status(outcome.status);
  return outcome.body;
}

const Applied = () => ApiOkResponse({ type: AdminCommandResultResponseDto, description: 'Audited and carried out by the owning service' });
const Accepted = () =>
  ApiAcceptedResponse({ type: AdminCommandResultResponseDto, description: `Audited; the owning service has not carried it out yet (it will)` });

@ApiTags('admin')
@ApiBearerAuth()
@Roles(ROLE_ADMIN)
@UseInterceptors(UnavailableInterceptor)
@Controller(ADMIN_CONTROLLER_PATHS)
export class AdminReportsController {
  constructor(private readonly reports: AdminReportsService) {}

  @Get('reports')
  @ApiOkResponse({ type: [AdminReportResponseDto], description: 'Newest first; `X-Total-Count` carries the number matching the filters' })
  @ApiHeader({ name: 'X-Total-Count', description: 'Reports matching the filters', required: false })
  @ApiErrors(400, 503)
  async list(@Query() query: ReportsQueryDto, @Res({ passthrough: true }) res: Response): Promise<AdminReportDto[]> {
    const page = await this.reports.list(query);
    res.setHeader('X-Total-Count', String(page.total));
    return page.reports;
  }

  @Get('reports/:id')
  @ApiOkResponse({ type: AdminReportDetailResponseDto })
  @ApiErrors(400, 404, 503)
  detail(@Param('id', ResourceIdPipe) id: string): Promise<AdminReportDetailDto> {
    return this.reports.detail(id);
  }

  @Patch('reports/:id')
  @Applied()
  @Accepted()
  @ApiErrors(400, 404, 409, 503)
  async resolve(
    @Actor() actor: AdminActor,
    @Param('id', ResourceIdPipe) id: string,
    @Body() body: UpdateReportBodyDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AdminCommandResultDto> {
    return answer(res, await this.reports.resolve(actor, id, body));
  }
}

@ApiTags('admin')
@ApiBearerAuth()
@Roles(ROLE_ADMIN)
@UseInterceptors(UnavailableInterceptor)
@Controller(ADMIN_CONTROLLER_PATHS)
export class AdminUsersController {
  constructor(private readonly users: AdminUsersService) {}

  // Before `users/:id`, which would take `search` for an id.
  @Get('users/search')
  @ApiOkResponse({ type: [AdminUserSummaryResponseDto], description: 'Accounts whose name or email contains q (case-insensitive)' })
  @ApiErrors(400, 503)
  search(@Query() query: UserSearchQueryDto): Promise<AdminUserSummaryDto[]> {
    return this.users.search(query.q, query.limit);
  }

  @Get('users/:id')
  @ApiOkResponse({ type: AdminUserDetailResponseDto, description: 'A part that did not answer: its fields null, named in `unavailable`' })
  @ApiErrors(400, 404)
  detail(@Param('id', MemberIdPipe) id: string): Promise<AdminUserDetailDto> {
    return this.users.detail(id);
  }

  @Post('users/:id/suspend')
  @HttpCode(HttpStatus.OK)
  @Applied()
  @Accepted()
  @ApiErrors(400, 403, 404, 409, 503)
  async suspend(
    @Actor() actor: AdminActor,
    @Param('id', MemberIdPipe) id: string,
    @Body() body: SuspendUserBodyDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AdminCommandResultDto> {
    return answer(res, await this.users.suspend(actor, id, body.reason));
  }

  @Post('users/:id/unsuspend')
  @HttpCode(HttpStatus.OK)
  @Applied()
  @Accepted()
  @ApiErrors(400, 403, 404, 409, 503)
  async unsuspend(
    @Actor() actor: AdminActor,
    @Param('id', MemberIdPipe) id: string,
    @Body(EmptyBodyPipe) _body: undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AdminCommandResultDto> {
    return answer(res, await this.users.unsuspend(actor, id));
  }

  @Delete('users/:id')
  @Applied()
  @Accepted()
  @ApiErrors(400, 403, 404, 503)
  async delete(
    @Actor() actor: AdminActor,
    @Param('id', MemberIdPipe) id: string,
    @Body(EmptyBodyPipe) _body: undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AdminCommandResultDto> {
    return answer(res, await this.users.delete(actor, id));
  }
}

@ApiTags('admin')
@ApiBearerAuth()
@Roles(ROLE_ADMIN)
@UseInterceptors(UnavailableInterceptor)
@Controller(ADMIN_CONTROLLER_PATHS)
export class AdminPhotosController {
  constructor(private readonly photos: AdminPhotosService) {}

  @Get('photos/pending')
  @ApiOkResponse({ type: PendingPhotosResponseBodyDto, description: 'Riskiest first, with the day’s figures' })
  @ApiErrors(503)
  pending(): Promise<PendingPhotosResponseDto> {
    return this.photos.pending();
  }

  @Post('photos/:id/approve')
  @HttpCode(HttpStatus.OK)
  @Applied()
  @Accepted()
  @ApiErrors(400, 404, 409, 503)
  async approve(
    @Actor() actor: AdminActor,
    @Param('id', ResourceIdPipe) id: string,
    @Body(EmptyBodyPipe) _body: undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AdminCommandResultDto> {
    return answer(res, await this.photos.approve(actor, id));
  }

  @Post('photos/:id/reject')
  @HttpCode(HttpStatus.OK)
  @Applied()
  @Accepted()
  @ApiErrors(400, 404, 409, 503)
  async reject(
    @Actor() actor: AdminActor,
    @Param('id', ResourceIdPipe) id: string,
    @Body() body: RejectPhotoBodyDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AdminCommandResultDto> {
    return answer(res, await this.photos.reject(actor, id, body.reason));
  }
}

@ApiTags('admin')
@ApiBearerAuth()
@Roles(ROLE_ADMIN)
@UseInterceptors(UnavailableInterceptor)
@Controller(ADMIN_CONTROLLER_PATHS)
export class AdminStatsController {
  constructor(
    private readonly statistics: AdminStatsService,
    private readonly audit: AuditService,
  ) {}

  @Get(['stats', 'statistics'])
  @ApiOkResponse({ type: AdminStatsResponseDto })
  @ApiErrors(503)
  stats(): Promise<AdminStatsDto> {
    return this.statistics.stats();
  }

  @Get('audit')
  @ApiOkResponse({ type: AuditLogPageResponseDto, description: 'Newest first' })
  @ApiErrors(400, 503)
  auditLog(@Query() query: AuditQueryDto): Promise<AuditLogPageDto> {
    return this.audit.page(query);
  }
}

export class QueueDashboardLinkDto {
  @ApiProperty({ example: '/admin/queues/?ticket=…', description: 'Open within 60 s; works once' })
  url!: string;
}

@ApiTags('admin')
@ApiBearerAuth()
@Roles(ROLE_ADMIN)
@UseInterceptors(UnavailableInterceptor)
@Controller(ADMIN_CONTROLLER_PATHS)
export class AdminQueuesController {
  constructor(private readonly dashboard: QueueDashboard) {}

  @Post('queues/session')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: QueueDashboardLinkDto, description: 'A one-time link to the queue dashboard (browser navigation carries no bearer token)' })
  @ApiErrors(400, 503)
  openDashboard(@CurrentUser() admin: AuthPrincipal, @Body(EmptyBodyPipe) _body: undefined): Promise<{ url: string }> {
    return this.dashboard.openSession(admin);
  }
}
