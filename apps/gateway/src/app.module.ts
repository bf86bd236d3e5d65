import { DynamicModule, Module } from '@nestjs/common';
import { SERVICES } from '@mate/contracts';
import { CoreModule } from '@mate/server-kit';
import { GatewayEnv } from './gateway.env';
import { GatewayController } from './gateway.controller';
import { RealtimeServer } from './realtime/realtime.server';

@Module({})
export class AppModule {
  static forRoot(env?: Partial<Record<string, string>>): DynamicModule {
    return {
      module: AppModule,
      imports: [CoreModule.forRoot({ service: SERVICES.gateway, envClass: GatewayEnv, env })],
      controllers: [GatewayController],
      providers: [RealtimeServer],
    };
  }
}
