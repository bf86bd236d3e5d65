import { Controller, DynamicModule, Get, Inject, Module, Param, Type, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InternalCallerGuard } from '../bootstrap/internal-trust';
import { Public } from '../auth/decorators';
import { UnavailableInterceptor } from '../errors/unavailable';
import { MemberIdPipe } from '../errors/member-id.pipe';

/** A service's part of a member's data export (issue 12; the part types are in @mate/contracts). */
export interface MemberExporter<Part = unknown> {
  exportMember(userId: string): Promise<Part>;
}

export const MEMBER_EXPORTER = Symbol('MEMBER_EXPORTER');

/**
 * `GET /internal/gdpr/members/{userId}/export`: this service's part of the member's export, which
 * auth-service assembles for `POST /api/gdpr/export`. Service to service only (the internal
 * credential; no member token: auth-service authorizes the member). Not in the API documents.
 */
@ApiExcludeController()
@UseGuards(InternalCallerGuard)
@UseInterceptors(UnavailableInterceptor)
@Controller('internal/gdpr/members')
export class MemberExportController {
  constructor(@Inject(MEMBER_EXPORTER) private readonly exporter: MemberExporter) {}

  @Get(':userId/export')
  @Public()
  export(@Param('userId', MemberIdPipe) userId: string): Promise<unknown> {
    return this.exporter.exportMember(userId);
  }
}

/** Serves a service's export part: `MemberDataModule.forExporter(ChatExporter, { imports })`. */
@Module({})
export class MemberDataModule {
  static forExporter(exporter: Type<MemberExporter>, options: { imports?: DynamicModule['imports'] } = {}): DynamicModule {
    return {
      module: MemberDataModule,
      imports: options.imports ?? [],
      controllers: [MemberExportController],
      providers: [exporter, { provide: MEMBER_EXPORTER, useExisting: exporter }],
    };
  }
}
