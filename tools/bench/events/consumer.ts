import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { EntityManager, MigrationInterface, QueryRunner } from 'typeorm';
import { eventsConsumedBy, SERVICES, type EventEnvelope, type ProfileUpdatedPayload } from '@mate/contracts';
import { DatabaseEnv, runMigrations, ServiceModule, type EventHandlers, type EventHandlerSet } from '@mate/server-kit';

/** What matching-service will keep (a candidate row per member) plus when each event was applied. */
class BenchTables1700000000000 implements MigrationInterface {
  name = 'BenchTables1700000000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE TABLE candidate (user_id uuid PRIMARY KEY, name text, bio_version int, updated_at timestamptz)');
    await q.query(`CREATE TABLE bench_handled (
      event_id uuid PRIMARY KEY, occurred_at timestamptz NOT NULL, handled_at timestamptz NOT NULL DEFAULT clock_timestamp())`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE bench_handled');
    await q.query('DROP TABLE candidate');
  }
}

@Injectable()
class CandidateHandlers implements EventHandlerSet {
  handlers(): EventHandlers {
    // The kit refuses to start a consumer that lacks a handler for an event the catalogue routes
    // to its service. The bench publishes only profile.updated; every other event matching-service
    // consumes gets a handler that does nothing, so an event added to the catalogue later does not
    // stop the bench (it did: issue 27).
    const untouched: EventHandlers = Object.fromEntries(
      eventsConsumedBy(SERVICES.matching).map((name) => [name, async () => undefined]),
    );
    return {
      ...untouched,
      'profile.updated': async (p: ProfileUpdatedPayload, manager: EntityManager, envelope: EventEnvelope<'profile.updated'>) => {
        await manager.query(
          `INSERT INTO candidate (user_id, name, updated_at) VALUES ($1, $2, $3)
           ON CONFLICT (user_id) DO UPDATE SET name = EXCLUDED.name, updated_at = EXCLUDED.updated_at`,
          [p.userId, p.name, p.updatedAt],
        );
        await manager.query('INSERT INTO bench_handled (event_id, occurred_at) VALUES ($1, $2)', [envelope.id, envelope.occurredAt]);
      },
    };
  }
}

@Module({})
class NoFeatures {}

async function main() {
  const ctx = await NestFactory.createApplicationContext(
    ServiceModule.forRoot({
      service: SERVICES.matching,
      envClass: DatabaseEnv,
      entities: [],
      migrations: [BenchTables1700000000000],
      features: [NoFeatures],
      handlers: CandidateHandlers,
    }),
    { logger: ['error', 'warn'] },
  );
  await runMigrations(ctx);
  ctx.enableShutdownHooks();
  process.stdout.write('consumer ready\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
