#!/usr/bin/env bash
# A throwaway MariaDB (MySQL protocol) for the MySQL engine tests, on loopback only.
#
#   bash scripts/mariadb.sh         install (if needed), create and start the server, create the
#                                   database evallens_test, print its URL (idempotent)
#   bash scripts/mariadb.sh stop    stop the server
#
# Settings (environment): EVALLENS_MYSQL_DIR (default /tmp/evallens-mariadb), EVALLENS_MYSQL_PORT
# (default 33069). Installs Debian's `mariadb-server` with apt-get when no server binary is found (the
# package's own service is not used). The server listens on 127.0.0.1 only, its socket is inside its
# own folder, and root connects from 127.0.0.1 without a password: it holds test data and nothing
# else. As root the server runs as the `mysql` user. Then:
#   EVALLENS_MYSQL_URL=mysql://root@127.0.0.1:33069/evallens_test
set -euo pipefail

DIR="${EVALLENS_MYSQL_DIR:-/tmp/evallens-mariadb}"
PORT="${EVALLENS_MYSQL_PORT:-33069}"
DATA="$DIR/data"
SOCKET="$DIR/mysqld.sock"
PIDFILE="$DIR/mysqld.pid"
DATABASE=evallens_test

find_server() {
  for candidate in mariadbd mysqld; do
    if command -v "$candidate" >/dev/null 2>&1; then command -v "$candidate"; return; fi
    if [ -x "/usr/sbin/$candidate" ]; then echo "/usr/sbin/$candidate"; return; fi
  done
}

running() {
  [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null
}

client() {
  local bin
  bin="$(command -v mariadb || command -v mysql)"
  "$bin" --no-defaults --protocol=tcp -h 127.0.0.1 -P "$PORT" -u root "$@"
}

if [ "${1:-start}" = stop ]; then
  if running; then
    kill "$(cat "$PIDFILE")"
    for _ in $(seq 1 300); do running || break; sleep 0.1; done
  else
    echo "mariadb.sh: no server running in $DIR"
  fi
  exit 0
fi

SERVER="$(find_server)"
if [ -z "$SERVER" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "mariadb.sh: MariaDB's server is not installed; install it (apt-get install mariadb-server) and run again" >&2
    exit 1
  fi
  echo "mariadb.sh: installing MariaDB from Debian's packages"
  apt-get update -qq
  # policy-rc.d keeps the package from starting its own service.
  DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 apt-get install -y -qq mariadb-server >/dev/null
  SERVER="$(find_server)"
  [ -n "$SERVER" ] || { echo "mariadb.sh: installed mariadb-server but found no server binary" >&2; exit 1; }
fi

USER_ARGS=()
if [ "$(id -u)" = 0 ]; then USER_ARGS=(--user=mysql); fi

if [ ! -d "$DATA/mysql" ]; then
  mkdir -p "$DATA"
  [ "$(id -u)" = 0 ] && chown -R mysql:mysql "$DIR"
  mariadb-install-db --no-defaults "${USER_ARGS[@]}" --datadir="$DATA" --auth-root-authentication-method=normal --skip-test-db >"$DIR/install.log" 2>&1 \
    || { echo "mariadb.sh: mariadb-install-db failed; see $DIR/install.log" >&2; exit 1; }
fi

if ! running; then
  # setsid: the server outlives this script and is not stopped with the shell that ran it.
  setsid "$SERVER" --no-defaults "${USER_ARGS[@]}" --datadir="$DATA" --port="$PORT" --bind-address=127.0.0.1 \
    --socket="$SOCKET" --pid-file="$PIDFILE" --skip-name-resolve --innodb-flush-log-at-trx-commit=0 \
    --log-error="$DIR/server.log" >/dev/null 2>&1 < /dev/null &
fi

# Poll until it accepts connections (at most ~30 s).
for _ in $(seq 1 300); do
  if client -e 'SELECT 1' >/dev/null 2>&1; then break; fi
  sleep 0.1
done
client -e 'SELECT 1' >/dev/null 2>&1 || { echo "mariadb.sh: the server did not answer on 127.0.0.1:$PORT; see $DIR/server.log" >&2; exit 1; }

# mariadb-install-db lets root in from 127.0.0.1 without a password (unix socket auth for root@localhost).
client -e "CREATE DATABASE IF NOT EXISTS $DATABASE"

echo "mysql://root@127.0.0.1:$PORT/$DATABASE"
