#!/bin/sh
# Writes PgBouncer's configuration into $CONFIG_DIR (default /config, a memory-backed emptyDir)
# from the services' own database URLs, so PgBouncer needs no credential of its own:
#   pgbouncer.ini  [databases] built here, then the settings of $TEMPLATE_DIR/pgbouncer.ini
#   userlist.txt   each service's role and password, taken from its primary's URL
# For every line `service pool read_pool` of $TEMPLATE_DIR/databases.conf it reads
#   <SERVICE>_DATABASE_URL          the primary (mate-secrets <service>.DATABASE_URL), required
#   <SERVICE>_DATABASE_REPLICA_URL  its streaming replica (<service>.DATABASE_REPLICA_URL),
#                                   required when read_pool is not `-`
# and declares database <db> (the primary) and, with a replica, <db>_read, where <db> is the
# primary URL's database name: a service's pooled URLs are then
#   postgres://<role>:<password>@pgbouncer:6432/<db>        (<service>.PGBOUNCER_URL)
#   postgres://<role>:<password>@pgbouncer:6432/<db>_read   (<service>.PGBOUNCER_READ_URL)
# URLs are postgres://role:password@host[:port]/db[?...]; role and password must not need URL
# escaping (no %, @, :, /, " or spaces: `openssl rand -hex 32` passwords).
set -eu

config_dir="${CONFIG_DIR:-/config}"
template_dir="${TEMPLATE_DIR:-/etc/pgbouncer-template}"

fail() {
  echo "render-config: $*" >&2
  exit 1
}

# Splits a postgres URL into $role $password $host $port $dbname.
parse() {
  url="$1"
  what="$2"
  case "$url" in
    postgres://*@*/* | postgresql://*@*/*) ;;
    *) fail "$what is not postgres://role:password@host[:port]/database" ;;
  esac
  rest="${url#*://}"
  credentials="${rest%%@*}"
  location="${rest#*@}"
  role="${credentials%%:*}"
  password="${credentials#*:}"
  [ "$password" != "$credentials" ] || fail "$what has no password"
  hostport="${location%%/*}"
  dbname="${location#*/}"
  dbname="${dbname%%\?*}"
  host="${hostport%%:*}"
  port="${hostport#*:}"
  [ "$port" != "$hostport" ] || port=5432
  for part in "$role" "$password" "$host" "$dbname"; do
    case "$part" in
      '' | *[%@:/\"\ ]*) fail "$what: role, password, host and database must be non-empty and need no URL escaping" ;;
    esac
  done
  case "$port" in '' | *[!0-9]*) fail "$what: port $port is not a number" ;; esac
}

umask 077
databases="$config_dir/databases.part"
users="$config_dir/userlist.txt"
echo '[databases]' >"$databases"
: >"$users"

while read -r service pool read_pool rest; do
  case "$service" in '' | '#'*) continue ;; esac
  [ -z "${rest:-}" ] || fail "databases.conf: $service: more than service, pool and read_pool"
  case "$pool" in '' | *[!0-9]*) fail "databases.conf: $service: pool $pool is not a number" ;; esac
  var="$(echo "$service" | tr 'a-z-' 'A-Z_')"
  eval "primary=\${${var}_DATABASE_URL:-}"
  [ -n "$primary" ] || fail "${var}_DATABASE_URL is not set ($service's primary)"
  parse "$primary" "${var}_DATABASE_URL"
  echo "$dbname = host=$host port=$port dbname=$dbname pool_size=$pool" >>"$databases"
  grep -q "^\"$role\" " "$users" || echo "\"$role\" \"$password\"" >>"$users"
  primary_role="$role"
  primary_db="$dbname"
  if [ "$read_pool" != - ]; then
    case "$read_pool" in '' | *[!0-9]*) fail "databases.conf: $service: read_pool $read_pool is not a number" ;; esac
    eval "replica=\${${var}_DATABASE_REPLICA_URL:-}"
    [ -n "$replica" ] || fail "${var}_DATABASE_REPLICA_URL is not set ($service reads from a replica)"
    parse "$replica" "${var}_DATABASE_REPLICA_URL"
    # A streaming replica has its primary's roles and databases.
    [ "$role" = "$primary_role" ] && [ "$dbname" = "$primary_db" ] ||
      fail "${var}_DATABASE_REPLICA_URL must name the primary's role and database ($primary_role, $primary_db)"
    echo "${dbname}_read = host=$host port=$port dbname=$dbname pool_size=$read_pool" >>"$databases"
  fi
done <"$template_dir/databases.conf"

{
  cat "$databases"
  echo
  cat "$template_dir/pgbouncer.ini"
} >"$config_dir/pgbouncer.ini"
rm -f "$databases"
echo "render-config: $(grep -c ' = host=' "$config_dir/pgbouncer.ini") databases, $(wc -l <"$users") roles"
