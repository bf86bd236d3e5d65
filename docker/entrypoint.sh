#!/bin/sh
# Container entry point (tini runs it as PID 1's child). Decides by the built output what APP is:
#   dist/apps/<APP>/main.js     a NestJS service:  start -> node main.js
#                                                 migrate -> node main.js migrate (one-off, exits)
#   dist/apps/<APP>/index.html  a web app:         start -> node tools/web-server/server.mjs <dist>
# Any other command is run as given (e.g. `sh`, `node -e ...`, or a service's own one-off command
# as `node dist/apps/<APP>/main.js <command>`).
set -eu

: "${APP:?APP is not set: build the image with --build-arg APP=<project>}"
APP_DIST="${APP_DIST:-/app/dist/apps/$APP}"
WEB_SERVER="${WEB_SERVER:-/app/tools/web-server/server.mjs}"

if [ -f "$APP_DIST/main.js" ]; then
  kind=service
elif [ -f "$APP_DIST/index.html" ]; then
  kind=web
else
  echo "entrypoint: $APP_DIST has neither main.js nor index.html" >&2
  exit 64
fi

command="${1:-start}"
if [ "$#" -gt 0 ]; then shift; fi

case "$command" in
  start)
    if [ "$kind" = service ]; then
      exec node "$APP_DIST/main.js" "$@"
    fi
    exec node "$WEB_SERVER" "$APP_DIST"
    ;;
  migrate)
    if [ "$kind" != service ]; then
      echo "entrypoint: $APP is a web app; it has no migrations" >&2
      exit 64
    fi
    exec node "$APP_DIST/main.js" migrate "$@"
    ;;
  *)
    exec "$command" "$@"
    ;;
esac
