import { DEFAULT_PORTS, SERVICES } from '@mate/contracts';
import { bootstrapService } from '@mate/server-kit';
import { AppModule } from './app.module';
import { CandidateRepository } from './candidates/candidate.repository';
import { RefitService } from './scoring';

void bootstrapService({
  name: SERVICES.matching,
  defaultPort: DEFAULT_PORTS[SERVICES.matching],
  module: () => AppModule.forRoot(),
  commands: {
    /** `node main.js refit`: refits the scoring model on the recorded swipes now (after seeding a history). */
    refit: async (app) => {
      const outcome = await app.get(RefitService).refit();
      process.stdout.write(
        outcome.published
          ? `scoring model ${outcome.version} fitted on ${outcome.swipes} swipe(s): held-out AUC ${outcome.metrics.auc}\n`
          : `scoring model kept (${outcome.version}): ${outcome.reason}\n`,
      );
    },
    /**
     * `node main.js explain-pool <viewerId> [runs]`: the candidate query's plan for that member as
     * PostgreSQL ran it, `runs` times (default 1), printed as one JSON line `{ "plans": [...] }`.
     */
    'explain-pool': async (app, [viewerId, runs = '1']) => {
      if (!viewerId || !/^[1-9]\d*$/.test(runs)) throw new Error('usage: explain-pool <viewerId> [runs]');
      const plans = await app.get(CandidateRepository).explainPool(viewerId, Number(runs));
      process.stdout.write(`${JSON.stringify({ plans })}\n`);
    },
  },
});
