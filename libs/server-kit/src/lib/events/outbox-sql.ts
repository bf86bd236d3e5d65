/**
 * The outbox rows of facts (events without an aggregate version: `OutboxService.factRow`) written
 * inside a producer's own statement, so a hot path stores its rows and their events in one round
 * trip. `facts` names a relation of the statement (a CTE, usually) with the columns `id` (uuid: the
 * envelope's id), `name` (text: the event's name) and `body` (jsonb: the envelope `factRow` built,
 * completed in SQL with what only the statement knows). The same transaction rules as `publish()`
 * apply, and nothing nudges the relay: its poll takes such rows in batches.
 *
 *     WITH ..., facts AS (SELECT ... AS id, 'message.sent' AS name, ... AS body FROM inserted),
 *     event AS (${insertOutboxFacts('facts')})
 */
export function insertOutboxFacts(facts: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(facts)) throw new Error('insertOutboxFacts takes the name of a relation');
  return `INSERT INTO outbox (id, kind, name, body) SELECT facts.id, 'event', facts.name, facts.body FROM ${facts} facts`;
}
