import { DEFAULT_PORTS, SERVICES } from '@mate/contracts';
import { bootstrapService } from '@mate/server-kit';
import type { GatewayEnv } from '../../gateway.env';
import { gatewayHttp } from '../../gateway.http';
import { presenceGatewayModule } from './presence-gateway';

/**
 * The gateway's entry point with a short presence TTL (`PRESENCE_TEST_TTL_MS`), for the test that
 * kills a gateway process without letting it clean up.
 */
void bootstrapService({
  name: SERVICES.gateway,
  defaultPort: DEFAULT_PORTS.gateway,
  module: () => presenceGatewayModule(undefined, Number(process.env['PRESENCE_TEST_TTL_MS'])),
  http: (env) => gatewayHttp(env as GatewayEnv),
});
