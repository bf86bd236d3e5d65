import { DynamicModule, Module } from '@nestjs/common';
import { SERVICES } from '@mate/contracts';
import { MemberDataModule, ServiceModule } from '@mate/server-kit';
import { AuthEnv } from './auth.env';
import { AccountsModule } from './accounts/accounts.module';
import { RepublishModule } from './republish/republish.module';
import { GdprModule } from './gdpr/gdpr.module';
import { AdminCommandsModule } from './admin-commands/admin-commands.module';
import { AdminAccountsModule } from './admin-accounts/admin-accounts.module';
import { MemberActivityModule } from './member-activity/member-activity.module';
import { AccountExporter } from './gdpr/account-exporter';
import { User } from './accounts/user.entity';
import { Session } from './sessions/session.entity';
import { AuthToken } from './tokens/auth-token.entity';
import { AUTH_MIGRATIONS } from './migrations';

@Module({})
export class AppModule {
  /** `env` wins over process.env, so a test can run this service next to others in one process. */
  static forRoot(env?: Partial<Record<string, string>>): DynamicModule {
    return ServiceModule.forRoot({
      service: SERVICES.auth,
      envClass: AuthEnv,
      env,
      entities: [User, Session, AuthToken],
      migrations: AUTH_MIGRATIONS,
      // The account part is also served on the internal export route, like every other part.
      features: [AccountsModule, RepublishModule, GdprModule, AdminCommandsModule, AdminAccountsModule, MemberActivityModule, MemberDataModule.forExporter(AccountExporter, { imports: [MemberActivityModule] })],
    });
  }
}
