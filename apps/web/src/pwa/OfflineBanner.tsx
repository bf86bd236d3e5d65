/**
 * Says plainly that the app is offline and what still works: the screens already open, and
 * messages, which wait in the chat's queue (src/chat/pending-store.ts) and go when the
 * connection is back.
 */
export function OfflineBanner() {
  return (
    <div className="app-status__banner app-status__banner--offline" role="status">
      <strong>You're offline.</strong> <span>Messages you write will be sent when you're back online.</span>
    </div>
  );
}
