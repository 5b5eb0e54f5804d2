#!/usr/bin/env bash
# A throwaway PostgreSQL for the SQL engine tests, on loopback only.
#
#   bash scripts/postgres.sh         install (if needed), create and start the cluster, create the
#                                    database evallens_test, print its URL (idempotent)
#   bash scripts/postgres.sh stop    stop the cluster
#
# Settings (environment): EVALLENS_PG_DIR (default /tmp/evallens-pg), EVALLENS_PG_PORT (default 54329).
# Installs Debian's `postgresql` with apt-get when no server binaries are found. The cluster listens on
# 127.0.0.1 only, with no Unix socket, and trusts connections from 127.0.0.1 (no password): it holds
# test data and nothing else. PostgreSQL refuses to run as root, so as root the server runs as the
# `postgres` user. Then: EVALLENS_PG_URL=postgres://postgres@127.0.0.1:54329/evallens_test
set -euo pipefail

DIR="${EVALLENS_PG_DIR:-/tmp/evallens-pg}"
PORT="${EVALLENS_PG_PORT:-54329}"
DATA="$DIR/data"
DATABASE=evallens_test

# The newest installed server's bin folder (Debian keeps them off PATH), else PATH's.
find_bin() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then
    echo "$dir"
  elif command -v initdb >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v initdb)")"
  fi
}

# Runs a command as the user that owns the cluster: `postgres` when we are root, else ourselves.
as_pg() {
  if [ "$(id -u)" = 0 ]; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

BIN="$(find_bin)"

if [ "${1:-start}" = stop ]; then
  if [ -n "$BIN" ] && [ -f "$DATA/postmaster.pid" ]; then
    as_pg "$BIN/pg_ctl" -D "$DATA" stop -m fast
  else
    echo "postgres.sh: no cluster running in $DATA"
  fi
  exit 0
fi

if [ -z "$BIN" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "postgres.sh: PostgreSQL's server is not installed; install it (apt-get install postgresql) and run again" >&2
    exit 1
  fi
  echo "postgres.sh: installing PostgreSQL from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  BIN="$(find_bin)"
  [ -n "$BIN" ] || { echo "postgres.sh: installed postgresql but found no initdb" >&2; exit 1; }
fi

if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
  useradd --system --home-dir "$DIR" --shell /usr/sbin/nologin postgres
fi

if [ ! -f "$DATA/PG_VERSION" ]; then
  mkdir -p "$DIR"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$DIR"
  chmod 700 "$DIR"
  as_pg "$BIN/initdb" -D "$DATA" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 --no-sync >"$DIR/initdb.log"
  cat >>"$DATA/postgresql.conf" <<EOF

# evallens: a throwaway test server on loopback
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = ''
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
  echo "host all all 127.0.0.1/32 trust" >"$DATA/pg_hba.conf"
fi

if ! as_pg "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
  as_pg "$BIN/pg_ctl" -D "$DATA" -l "$DIR/server.log" -o "-p $PORT" start >/dev/null
fi

# pg_ctl start returns once the postmaster is up; poll until it accepts connections (at most ~30 s).
for _ in $(seq 1 300); do
  if "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT"; then break; fi
  sleep 0.1
done
"$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" || { echo "postgres.sh: the server did not answer on 127.0.0.1:$PORT; see $DIR/server.log" >&2; exit 1; }

PSQL=("$BIN/psql" -X -q -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1)
if [ "$("${PSQL[@]}" -tAc "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'")" != 1 ]; then
  "${PSQL[@]}" -c "CREATE DATABASE $DATABASE"
fi

echo "postgres://postgres@127.0.0.1:$PORT/$DATABASE"
