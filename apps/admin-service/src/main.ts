import { DEFAULT_PORTS, SERVICES } from '@mate/contracts';
import { bootstrapService } from '@mate/server-kit';
import { AppModule } from './app.module';

void bootstrapService({
  name: SERVICES.admin,
  defaultPort: DEFAULT_PORTS[SERVICES.admin],
  module: () => AppModule.forRoot(),
});
