import { DEFAULT_PORTS, SERVICES } from '@mate/contracts';
import { bootstrapService } from '@mate/server-kit';
import { AppModule } from './app.module';
import { AccountsService } from './accounts/accounts.service';

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
  },
});
