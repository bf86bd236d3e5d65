import { Module } from '@nestjs/common';
import { FilterPreferencesController, PreferencesController } from './preferences.controller';
import { PreferencesRepository } from './preferences.repository';
import { PreferencesService } from './preferences.service';

/** Match and filter preferences: one row per member, published as preferences.updated. */
@Module({
  controllers: [PreferencesController, FilterPreferencesController],
  providers: [PreferencesRepository, PreferencesService],
  exports: [PreferencesRepository],
})
export class PreferencesModule {}
