import type { EventName, EventPayloads } from '@mate/contracts';

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

/**
 * The payload fields of a fact that only the producer's statement knows (a message's seq, a like's
 * `matched`), each as the SQL expression that computes it there. `OutboxService.factRowToComplete`
 * types the rest of the payload without these fields and `completedFactBody` adds exactly these,
 * so every field written is named once: in TypeScript, type-checked, or here, beside its statement.
 * What the expressions make of the whole payload is checked by the producer's specs against the
 * event's payload class (`readEventPayload`).
 */
export type PayloadCompletion<N extends EventName, K extends keyof EventPayloads[N]> = { readonly [F in K]: string };

/**
 * The SQL of a fact's envelope with its payload completed: `body` is the jsonb expression of the
 * envelope `factRowToComplete` built (a parameter or a column), `completion` the statement's fields.
 *
 *     facts AS (SELECT ..., ${completedFactBody('t.event', MESSAGE_SENT_BY_STATEMENT)} AS body FROM ...)
 */
export function completedFactBody<N extends EventName, K extends keyof EventPayloads[N] & string>(
  body: string,
  completion: PayloadCompletion<N, K>,
): string {
  if (!/^(\$\d+::jsonb|[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?)$/.test(body)) {
    throw new Error('completedFactBody takes a parameter ($n::jsonb) or a column');
  }
  const fields = (Object.entries(completion) as [string, string][]).map(([field, sql]) => `'${field}', ${sql}`);
  return `jsonb_set(${body}, '{payload}', (${body})->'payload' || jsonb_build_object(${fields.join(', ')}))`;
}
