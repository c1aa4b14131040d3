#!/bin/bash
# The official postgres image's entrypoint, for what docker-compose.yml uses: an option as the first argument is
# postgres'; for `postgres ...` as root, PGDATA is made the postgres user's and the rest runs as that user; an
# empty PGDATA is initialised with POSTGRES_USER (default postgres) whose password is POSTGRES_PASSWORD (required),
# the database POSTGRES_DB (default: the user's name) and scram-sha-256 password authentication from any address.
set -Eeuo pipefail

if [ "${1:0:1}" = '-' ]; then
  set -- postgres "$@"
fi

if [ "$1" = 'postgres' ]; then
  if [ "$(id -u)" = '0' ]; then
    mkdir -p "$PGDATA"
    chown postgres:postgres "$PGDATA" "$(dirname "$PGDATA")"
    chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$BASH_SOURCE" "$@"
  fi

  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    if [ -z "${POSTGRES_PASSWORD:-}" ]; then
      echo 'error: the database is uninitialised and POSTGRES_PASSWORD is not set' >&2
      exit 1
    fi
    user="${POSTGRES_USER:-postgres}"
    database="${POSTGRES_DB:-$user}"
    initdb --username="$user" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
      --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8
    printf '\n# Password authentication from any address (as the official image).\nhost all all all scram-sha-256\n' \
      >> "$PGDATA/pg_hba.conf"
    # The socket where Debian's libpq (pg_isready) looks for it; initdb writes the build's default (/tmp).
    printf "\nunix_socket_directories = '/var/run/postgresql'\n" >> "$PGDATA/postgresql.conf"
    if [ "$database" != 'postgres' ]; then
      # Single-user mode: no server listens while the database is made.
      printf 'CREATE DATABASE "%s";\n' "${database//\"/\"\"}" | postgres --single -D "$PGDATA" postgres > /dev/null
    fi
    echo 'PostgreSQL init process complete; ready for start up.'
  fi
fi

exec "$@"
