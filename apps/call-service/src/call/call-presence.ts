/**
 * Who has a socket right now: the kit's `PresenceReader` (written by the gateway, ADR 0005
 * "Presence") behind a port of the one method the sweeper needs, so tests can add members they
 * hold offline. It rejects when Redis is unreachable; the sweeper then ends no call on a guess.
 */
export interface CallPresence {
  onlineOf(userIds: string[]): Promise<Set<string>>;
}

export const CALL_PRESENCE = Symbol('CALL_PRESENCE');
