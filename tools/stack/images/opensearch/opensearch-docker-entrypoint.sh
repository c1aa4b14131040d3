#!/bin/bash
# As the official image's entrypoint: for `opensearch`, every environment variable whose name is a setting
# (lower case, with a dot: discovery.type, cluster.routing.allocation.disk.threshold_enabled ...) is passed as -E.
set -euo pipefail

if [ "${1:-}" = 'opensearch' ]; then
  shift
  settings=()
  while IFS= read -r -d '' entry; do
    name=${entry%%=*}
    if [[ "$name" =~ ^[a-z0-9_]+\.[a-z0-9_.]+$ ]]; then
      settings+=("-E" "$entry")
    fi
  done < <(env -0)
  exec opensearch "${settings[@]}" "$@"
fi

exec "$@"
