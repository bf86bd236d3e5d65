import { DEFAULT_PORTS, SERVICES } from '@mate/contracts';
import { bootstrapService } from '@mate/server-kit';
import { AppModule } from './app.module';

void bootstrapService({
  name: SERVICES.profile,
  defaultPort: DEFAULT_PORTS[SERVICES.profile],
  module: () => AppModule.forRoot(),
});
