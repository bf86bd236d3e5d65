#!/bin/sh
# Creates the Redis Cluster of REDIS_NODES (space-separated host:port, every node of the
# StatefulSet) with CLUSTER_REPLICAS replicas per master, or, run again, repairs what a restart
# can break, and changes nothing on a healthy cluster:
#   - no node belongs to a cluster yet (each knows only itself, no slot assigned): create it;
#   - some do: every member is introduced to the first one again (CLUSTER MEET: a node that came
#     back on a new IP is found again; a node already known is unchanged), then each empty node
#     (a node that lost its volume) joins as a replica of the master with the fewest, and the
#     identity it had before is forgotten;
#   - in both cases it waits until every node reports cluster_state:ok.
# Password: REDISCLI_AUTH (redis-cli reads it). Runs in the redis image (sh, getent, awk).
set -eu

: "${REDIS_NODES:?REDIS_NODES: space-separated host:port of every node}"
replicas="${CLUSTER_REPLICAS:-1}"
deadline=$(($(date +%s) + ${WAIT_SECONDS:-600}))

cli() {
  node="$1"
  shift
  redis-cli -h "${node%:*}" -p "${node##*:}" "$@"
}
# A field of CLUSTER INFO (its lines end in \r).
info() { cli "$1" cluster info 2>/dev/null | tr -d '\r' | sed -n "s/^$2://p"; }
# CLUSTER MEET and --cluster create take IP addresses, not names.
address() {
  ip="$(getent hosts "${1%:*}" | awk '{ print $1; exit }')"
  echo "${ip:-${1%:*}}:${1##*:}"
}
in_time() {
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "create-cluster: $1 (gave up after ${WAIT_SECONDS:-600} s)" >&2
    exit 1
  fi
  sleep 2
}
count=0
for node in $REDIS_NODES; do count=$((count + 1)); done

for node in $REDIS_NODES; do
  # A node loading its append-only file answers LOADING, not PONG.
  until [ "$(cli "$node" ping 2>/dev/null)" = PONG ]; do in_time "$node does not answer PING"; done
done

members=""
empty=""
for node in $REDIS_NODES; do
  if [ "$(info "$node" cluster_known_nodes)" = 1 ] && [ "$(info "$node" cluster_slots_assigned)" = 0 ]; then
    empty="$empty $node"
  else
    members="$members $node"
  fi
done

wait_ok() {
  for node in "$@"; do
    until [ "$(info "$node" cluster_state)" = ok ] && [ "$(info "$node" cluster_known_nodes)" -ge "$#" ]; do
      in_time "$node is not in a healthy cluster"
    done
  done
}

if [ -z "$members" ]; then
  echo "create-cluster: creating a cluster of $count nodes, $replicas replica(s) per master"
  addresses=""
  for node in $REDIS_NODES; do addresses="$addresses $(address "$node")"; done
  # shellcheck disable=SC2086 # one argument per address
  redis-cli --cluster create $addresses --cluster-replicas "$replicas" --cluster-yes
else
  # shellcheck disable=SC2086
  set -- $members
  seed="$1"
  for node in $members; do
    at="$(address "$node")"
    cli "$seed" cluster meet "${at%:*}" "${at##*:}" >/dev/null
  done
  # shellcheck disable=SC2086
  wait_ok $members
  for node in $empty; do
    echo "create-cluster: $node has no cluster: adding it as a replica"
    redis-cli --cluster add-node "$(address "$node")" "$(address "$seed")" --cluster-slave
  done
  if [ -n "$empty" ]; then
    # The identity a node had before it lost its volume is left without an address (its
    # successor took it): every node forgets it.
    for id in $(cli "$seed" cluster nodes | awk '$3 ~ /noaddr/ { print $1 }'); do
      for node in $REDIS_NODES; do cli "$node" cluster forget "$id" >/dev/null 2>&1 || true; done
    done
  fi
fi

# shellcheck disable=SC2086
wait_ok $REDIS_NODES
echo "create-cluster: $count nodes, cluster_state:ok"
