import { Module } from '@nestjs/common';
import { SafetyController } from './safety.controller';

/** The generated first feature of safety-service; replace it with the service's own. */
@Module({
  controllers: [SafetyController],
})
export class SafetyModule {}
