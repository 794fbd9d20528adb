#!/usr/bin/env bash
# Start a throw-away PostgreSQL server on loopback for the storage tests and print its URL.
# Usage: eval "$(scripts/postgres-test-server.sh start)"   ...   scripts/postgres-test-server.sh stop
set -euo pipefail
free_port() {
  python3 -c 'import socket
for port in range(55432, 55532):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            continue
        print(port)
        break'
}
DIR="${PGTEST_DIR:-/tmp/rules-index-pgtest}"
find_bin() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$bin" ]; then
    if [ "$(id -u)" = 0 ]; then
      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >&2
      bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    else
      echo "PostgreSQL is not installed" >&2; exit 1
    fi
  fi
  echo "$bin"
}
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
case "${1:-start}" in
  start)
    BIN=$(find_bin)
    if [ ! -f "$DIR/PG_VERSION" ]; then
      mkdir -p "$DIR"; [ "$(id -u)" = 0 ] && chown postgres "$DIR"
      as_pg "$BIN/initdb -D $DIR -A trust -U postgres >/dev/null"
    fi
    if as_pg "$BIN/pg_ctl -D $DIR status" >/dev/null 2>&1; then
      PORT=$(cat "$DIR/port")
    else
      PORT="${PGTEST_PORT:-$(free_port)}"
      as_pg "$BIN/pg_ctl -D $DIR -l $DIR/server.log -w -o '-p $PORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=on' start" >&2
      echo "$PORT" > "$DIR/port"
    fi
    echo "export TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:$PORT/postgres"
    ;;
  stop)
    BIN=$(find_bin)
    as_pg "$BIN/pg_ctl -D $DIR -m fast stop" >&2 || true
    ;;
esac
