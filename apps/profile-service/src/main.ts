import { DEFAULT_PORTS, SERVICES } from '@mate/contracts';
import { bootstrapService } from '@mate/server-kit';
import { AppModule } from './app.module';
import { timeClassifier } from './photos/classifier/classifier-timing';
import { PhotoReviewService } from './photos/review/photo-review.service';
import { ProfilesService } from './profiles/profiles.service';
import { ProfileRepublisher } from './republish/profile-republisher';

void bootstrapService({
  name: SERVICES.profile,
  defaultPort: DEFAULT_PORTS[SERVICES.profile],
  module: () => AppModule.forRoot(),
  commands: {
    /** `node main.js geocode-locations`: fills coordinates of locations written without them (seeders). */
    'geocode-locations': async (app) => {
      const handled = await app.get(ProfilesService).geocodeUngeocoded();
      process.stdout.write(`geocoded ${handled} profile location(s)\n`);
    },
    /** `node main.js scan-photos`: scores every stored photo not scored yet (seeded photos, older uploads). */
    'scan-photos': async (app) => {
      const scored = await app.get(PhotoReviewService).scanUnscored();
      process.stdout.write(`scored ${scored} photo(s)\n`);
    },
    /**
     * `node main.js time-classifier [runs]`: the photo classifier's load and time per photo on this
     * machine (`runs` photos, default 20), printed as one JSON line (the photos bench reads it).
     */
    'time-classifier': async (_app, [runs = '20']) => {
      if (!/^[1-9]\d*$/.test(runs)) throw new Error('usage: time-classifier [runs]');
      process.stdout.write(`${JSON.stringify(await timeClassifier(Number(runs)))}\n`);
    },
    /** `node main.js republish`: every profile's profile.updated and preferences.updated again (backfill). */
    republish: async (app) => {
      const { profiles, preferences } = await app.get(ProfileRepublisher).republishAll();
      process.stdout.write(`republished ${profiles} profile.updated and ${preferences} preferences.updated event(s)\n`);
    },
  },
});
