#!/bin/sh
# Deploys an overlay in order: config, network policies and backing services (prod-redis's Redis),
# then each service's migration Job (deleted first: a Job's pod template is immutable), waiting
# for the migrations to succeed, then every Deployment (API, worker and relay pods), waiting for
# the rollouts. Nothing that runs a service's new image starts before its migration has succeeded.
#   k8s/deploy.sh k8s/overlays/dev
# Needs kubectl >= 1.27 (built-in kustomize) and a context pointing at the cluster.
set -eu

overlay="${1:?usage: k8s/deploy.sh <overlay folder>}"
ns="$(sed -n 's/^namespace:[[:space:]]*//p' "$overlay/kustomization.yaml" | head -n 1)"
: "${ns:?$overlay/kustomization.yaml sets no namespace}"
rendered="$(mktemp)"
trap 'rm -f "$rendered"' EXIT
kubectl kustomize "$overlay" >"$rendered"

echo "==> namespace, config, secrets and backing services ($ns)"
kubectl apply -f "$rendered" -l 'app.kubernetes.io/component notin (gateway,service,worker,relay,web,migration)'
for w in $(kubectl get deployment,statefulset -n "$ns" -l 'app.kubernetes.io/part-of!=mate' -o name); do
  kubectl rollout status -n "$ns" "$w" --timeout=5m
done

echo "==> migrations"
kubectl delete job -n "$ns" -l app.kubernetes.io/component=migration --ignore-not-found --wait=true
kubectl apply -f "$rendered" -l app.kubernetes.io/component=migration
for job in $(kubectl get job -n "$ns" -l app.kubernetes.io/component=migration -o name); do
  while :; do
    state="$(kubectl get -n "$ns" "$job" -o jsonpath='{.status.conditions[?(@.status=="True")].type}')"
    case "$state" in
      *Complete*) echo "$job complete"; break ;;
      *Failed*)
        echo "$job failed:" >&2
        kubectl logs -n "$ns" "$job" --all-containers --tail=100 >&2 || true
        exit 1 ;;
    esac
    sleep 3
  done
done

echo "==> apps"
kubectl apply -f "$rendered"
for d in $(kubectl get deployment -n "$ns" -l app.kubernetes.io/part-of=mate -o name); do
  kubectl rollout status -n "$ns" "$d" --timeout=10m
done
echo "==> deployed $overlay to namespace $ns"
