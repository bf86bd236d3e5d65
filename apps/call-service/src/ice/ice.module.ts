import { Module } from '@nestjs/common';
import { IceController } from './ice.controller';
import { IceService } from './ice.service';

/** `GET /api/calls/ice-servers` (listed before the call routes: `ice-servers` is no call id). */
@Module({
  controllers: [IceController],
  providers: [IceService],
})
export class IceModule {}
