/**
 * Who has a socket right now. The gateway writes presence and the kit reads it
 * (`PresenceReader` in libs/server-kit/src/lib/realtime/presence.ts, being added by the
 * call-presence work); call-service depends only on this shape, provided under `CALL_PRESENCE`.
 */
export interface CallPresence {
  onlineOf(userIds: string[]): Promise<Set<string>>;
}

export const CALL_PRESENCE = Symbol('CALL_PRESENCE');

/**
 * Until the kit's reader is wired in, every member counts as online: the disconnect rule ends no
 * call rather than ending calls of members who are in fact connected (fail safe for the call;
 * the ring timeout and call:end still end every call).
 */
export const everyoneOnline: CallPresence = {
  onlineOf: async (userIds) => new Set(userIds),
};
