import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** One fact of the store, as the handlers read it from an event. */
export interface AnalyticsFact {
  /** The event envelope's id. */
  id: string;
  type: string;
  userId: string | null;
  otherUserId?: string | null;
  subjectId?: string | null;
  occurredAt: Date;
  /** YYYY-MM-DD (UTC); defaults to occurredAt's UTC day. */
  day?: string;
  props?: Record<string, unknown>;
}

export function utcDayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The SQL that writes the analytics store (append-only facts; the suspension state; erasure). */
@Injectable()
export class AnalyticsEventsRepository {
  /** Stores a fact once (a redelivered event finds its id). */
  async append(manager: EntityManager, fact: AnalyticsFact): Promise<void> {
    await manager.query(
      `INSERT INTO analytics_event (id, type, user_id, other_user_id, subject_id, day, occurred_at, props)
       VALUES ($1, $2, $3, $4, $5, $6::date, $7, $8::jsonb) ON CONFLICT (id) DO NOTHING`,
      [
        fact.id,
        fact.type,
        fact.userId,
        fact.otherUserId ?? null,
        fact.subjectId ?? null,
        fact.day ?? utcDayOf(fact.occurredAt),
        fact.occurredAt.toISOString(),
        JSON.stringify(fact.props ?? {}),
      ],
    );
  }

  /** Keeps the member's suspension state when `version` is newer than the one kept (0 for an unversioned envelope). */
  async applySuspension(manager: EntityManager, userId: string, suspended: boolean, version: number, changedAt: Date): Promise<void> {
    await manager.query(
      `INSERT INTO analytics_suspension (user_id, suspended, version, changed_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id) DO UPDATE SET suspended = EXCLUDED.suspended, version = EXCLUDED.version, changed_at = EXCLUDED.changed_at
        WHERE analytics_suspension.version < EXCLUDED.version
           OR (EXCLUDED.version = 0 AND analytics_suspension.version = 0 AND analytics_suspension.changed_at <= EXCLUDED.changed_at)`,
      [userId, suspended, version, changedAt.toISOString()],
    );
  }

  /**
   * Replaces the member's id in every fact with one fresh random id (aggregates stay right:
   * their registration, activity and messages still belong to one member, whom nobody can
   * trace) and forgets their suspension state. Answers the stand-in id.
   */
  async pseudonymise(manager: EntityManager, userId: string): Promise<string> {
    const standIn = randomUUID();
    await manager.query('UPDATE analytics_event SET user_id = $2 WHERE user_id = $1', [userId, standIn]);
    await manager.query('UPDATE analytics_event SET other_user_id = $2 WHERE other_user_id = $1', [userId, standIn]);
    await manager.query('DELETE FROM analytics_suspension WHERE user_id = $1', [userId]);
    return standIn;
  }
}
