import { DEFAULT_PORTS, SERVICES } from '@mate/contracts';
import { bootstrapService } from '@mate/server-kit';
import { AppModule } from './app.module';
import { AccountsService } from './accounts/accounts.service';
import { AccountRepublisher } from './republish/account-republisher';

void bootstrapService({
  name: SERVICES.auth,
  defaultPort: DEFAULT_PORTS[SERVICES.auth],
  module: () => AppModule.forRoot(),
  commands: {
    /** `node main.js grant-admin <email>`: gives an existing account the admin role. */
    'grant-admin': async (app, [email]) => {
      if (!email) throw new Error('Usage: grant-admin <email>');
      const user = await app.get(AccountsService).grantAdmin(email);
      process.stdout.write(`${user.email} is now an admin\n`);
    },
    /** `node main.js republish`: every account's user.registered (+ user.verified) again (backfill). */
    republish: async (app) => {
      const { registered, verified } = await app.get(AccountRepublisher).republishAll();
      process.stdout.write(`republished ${registered} user.registered and ${verified} user.verified event(s)\n`);
    },
  },
});
