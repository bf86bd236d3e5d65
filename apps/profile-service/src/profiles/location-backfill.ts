import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '@mate/server-kit';
import { ProfileEnv } from '../profile.env';
import { ProfilesService } from './profiles.service';

/**
 * Places stored as unknown before the geocoder folded special letters ("Tromso", "Bodo") are
 * found now: each worker replica geocodes them again when it starts, in the background (the
 * place list takes a moment to load and must not hold the service back). Each row is locked and
 * checked again, so two replicas doing it at once publish one change; a place still unknown
 * costs one in-memory lookup per start.
 */
@Injectable()
export class LocationBackfill implements OnApplicationBootstrap {
  constructor(
    private readonly profiles: ProfilesService,
    @Inject(ProfileEnv) private readonly env: ProfileEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.env.WORKERS !== 'on') return; // one-off commands (migrate among them) and API-only replicas
    this.profiles.resolveUnknownLocations().then(
      (found) => found > 0 && this.logger.info({ found }, 'profile locations found on the map after all'),
      (e: unknown) =>
        this.logger.warn(
          { err: e instanceof Error ? e.message : String(e) },
          'location backfill failed; it runs again at the next start',
        ),
    );
  }
}
