import { DEFAULT_PORTS, SERVICES } from '@mate/contracts';
import { bootstrapService } from '@mate/server-kit';
import { AppModule } from './app.module';
import { gatewayHttp } from './gateway.http';
import type { GatewayEnv } from './gateway.env';

void bootstrapService({
  name: SERVICES.gateway,
  defaultPort: DEFAULT_PORTS.gateway,
  module: () => AppModule.forRoot(),
  http: (env) => gatewayHttp(env as GatewayEnv),
});
