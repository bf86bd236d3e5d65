import { DEFAULT_PORTS, SERVICES } from '@mate/contracts';
import { bootstrapService } from '@mate/server-kit';
import { AppModule } from './app.module';

void bootstrapService({
  name: SERVICES.matching,
  defaultPort: DEFAULT_PORTS[SERVICES.matching],
  module: () => AppModule.forRoot(),
});
