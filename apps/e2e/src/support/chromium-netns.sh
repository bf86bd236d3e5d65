#!/bin/sh
# Playwright's "Chromium executable" for the call journey (loopback-browser.ts): runs Debian's
# Chromium in a new network namespace that has nothing but loopback, so a WebRTC call between two
# of its pages can only ever take loopback candidates. The platform stays outside; forwarders in
# the namespace (netns-forwarder.mjs) reach it through Unix sockets in MATE_NETNS_DIR.
# Environment (set by loopback-browser.ts): CHROMIUM_PATH, MATE_NETNS_DIR, MATE_NETNS_PORTS,
# MATE_NETNS_NODE (the node binary). Playwright's pipe (fds 3 and 4) passes through every exec.
set -eu

if [ "${MATE_NETNS_INSIDE:-}" != 1 ]; then
  export MATE_NETNS_INSIDE=1
  # unshare without --fork execs: the pid Playwright started stays the browser's pid.
  exec unshare --net "$0" "$@"
fi

ip link set lo up
MATE_NETNS_BROWSER_PID=$$ "$MATE_NETNS_NODE" "$(dirname "$0")/netns-forwarder.mjs" 3>&- 4>&- </dev/null &
forwarder=$!
# Chromium may not load a page before the forwarders listen: wait for them (at most 10 s).
tries=0
while [ ! -e "$MATE_NETNS_DIR/ready" ]; do
  if ! kill -0 "$forwarder" 2>/dev/null; then
    echo "chromium-netns: the forwarder inside the namespace exited" >&2
    exit 1
  fi
  tries=$((tries + 1))
  if [ "$tries" -gt 200 ]; then
    echo "chromium-netns: the forwarder inside the namespace did not start in 10 s" >&2
    exit 1
  fi
  sleep 0.05
done
exec "$CHROMIUM_PATH" "$@"
