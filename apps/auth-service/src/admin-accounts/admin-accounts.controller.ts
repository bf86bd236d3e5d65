import {
  Controller,
  Get,
  Injectable,
  Param,
  Query,
  UseGuards,
  UseInterceptors,
  type PipeTransform,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import {
  AuthErrorCode,
  type AdminAccountPart,
  type AdminAccountStatsPart,
  type AdminAccountSummaryPart,
} from '@mate/contracts';
import { badRequest, InternalCallerGuard, notFound, Public, UnavailableInterceptor } from '@mate/server-kit';
import { AdminAccountsService } from './admin-accounts.service';
import { AdminAccountSearchQueryDto, AdminAccountsQueryDto } from './dto/admin-accounts-queries.dto';

/** An account id for an internal caller: not a UUID is the caller's mistake (400), lower-cased. */
@Injectable()
class AccountIdPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (typeof value !== 'string' || !isUUID(value)) throw badRequest('userId must be a UUID');
    return value.toLowerCase();
  }
}

/**
 * Accounts as admin-service reads them (INTERNAL_ADMIN_PATHS, issue 13). Service to service only:
 * `/internal/**` is refused without the deployment's internal credential (the kit's middleware,
 * and this guard), so the gateway never reaches it; no member token (admin-service checked the
 * admin's role). The fixed paths come before `:userId`. Not in the API documents.
 */
@ApiExcludeController()
@UseGuards(InternalCallerGuard)
@UseInterceptors(UnavailableInterceptor)
@Controller('internal/admin/accounts')
export class AdminAccountsController {
  constructor(private readonly accounts: AdminAccountsService) {}

  /** `GET /internal/admin/accounts/search?q&limit`. */
  @Get('search')
  @Public()
  search(@Query() query: AdminAccountSearchQueryDto): Promise<AdminAccountSummaryPart[]> {
    return this.accounts.search(query.q, query.limit);
  }

  /** `GET /internal/admin/accounts/stats`. */
  @Get('stats')
  @Public()
  stats(): Promise<AdminAccountStatsPart> {
    return this.accounts.stats();
  }

  /** `GET /internal/admin/accounts?ids=a,b`: the ones that exist, in the order asked. */
  @Get()
  @Public()
  summaries(@Query() query: AdminAccountsQueryDto): Promise<AdminAccountSummaryPart[]> {
    return this.accounts.summaries(query.ids);
  }

  /** `GET /internal/admin/accounts/{id}`: 404 `User not found`. */
  @Get(':userId')
  @Public()
  async account(@Param('userId', AccountIdPipe) userId: string): Promise<AdminAccountPart> {
    const account = await this.accounts.account(userId);
    if (!account) throw notFound('User not found', AuthErrorCode.AccountNotFound);
    return account;
  }
}
