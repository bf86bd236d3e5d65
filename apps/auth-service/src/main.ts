import { DEFAULT_PORTS, SERVICES, type UserDto } from '@mate/contracts';
import { AppException, bootstrapService, type ServiceCommand } from '@mate/server-kit';
import { AppModule } from './app.module';
import { AccountsService } from './accounts/accounts.service';
import { AccountRepublisher } from './republish/account-republisher';

/** A role command of the operator's: what it did, or the refusal's own words (not a stack). */
function roleCommand(name: string, change: (accounts: AccountsService, email: string) => Promise<UserDto>, done: string): ServiceCommand {
  return async (app, [email]) => {
    if (!email) throw new Error(`Usage: ${name} <email>`);
    try {
      const user = await change(app.get(AccountsService), email);
      process.stdout.write(`${user.email} ${done}\n`);
    } catch (e) {
      if (!(e instanceof AppException)) throw e;
      throw new Error((e.getResponse() as { error: string }).error);
    }
  };
}

void bootstrapService({
  name: SERVICES.auth,
  defaultPort: DEFAULT_PORTS[SERVICES.auth],
  module: () => AppModule.forRoot(),
  commands: {
    /** `node main.js grant-admin <email>`: gives an existing account the admin role. */
    'grant-admin': roleCommand('grant-admin', (accounts, email) => accounts.grantAdmin(email), 'is now an admin'),
    /** `node main.js revoke-admin <email>`: takes the admin role back (the account stays, as a member). */
    'revoke-admin': roleCommand('revoke-admin', (accounts, email) => accounts.revokeAdmin(email), 'is no longer an admin'),
    /** `node main.js republish`: every account's user.registered (+ user.verified) again (backfill). */
    republish: async (app) => {
      const { registered, verified } = await app.get(AccountRepublisher).republishAll();
      process.stdout.write(`republished ${registered} user.registered and ${verified} user.verified event(s)\n`);
    },
  },
});
