/**
 * A list read by several parts of one screen that mount a frame apart (the home's stats and its
 * deferred sections, issue 26) is fresh for this long: the later part takes the answer the first
 * one got instead of asking again. What changes it meanwhile arrives live (the socket) or through
 * an invalidation, as before.
 */
export const SHARED_LIST_STALE_MS = 5_000;
