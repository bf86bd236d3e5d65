import { Module } from '@nestjs/common';
import { CallController } from './call.controller';

/** The generated first feature of call-service; replace it with the service's own. */
@Module({
  controllers: [CallController],
})
export class CallModule {}
