import { DEFAULT_PORTS, SERVICES } from '@mate/contracts';
import { bootstrapService } from '@mate/server-kit';
import { AppModule } from './app.module';

void bootstrapService({
  name: SERVICES.call,
  defaultPort: DEFAULT_PORTS[SERVICES.call],
  module: () => AppModule.forRoot(),
});
