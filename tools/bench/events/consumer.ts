import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { EntityManager, MigrationInterface, QueryRunner } from 'typeorm';
import { SERVICES, type EventEnvelope, type ProfileUpdatedPayload } from '@mate/contracts';
import { DatabaseEnv, runMigrations, ServiceModule, type EventHandlerSet } from '@mate/server-kit';

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
  handlers() {
    return {
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
