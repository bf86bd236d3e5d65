# Sourced: sets $docker to a client that can build with BuildKit. Docker 23+ clients build only
# through the buildx plugin; where it is missing (Debian bookworm packages no buildx) but Debian's
# own 20.10 client is installed, that one is used: it builds with the engine's built-in BuildKit.
docker="${DOCKER:-docker}"
if [ -z "${DOCKER:-}" ] && ! docker buildx version >/dev/null 2>&1 && [ -x /usr/bin/docker ]; then
  docker=/usr/bin/docker
fi
