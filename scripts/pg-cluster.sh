#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster on 127.0.0.1 for tests and benchmarks (never a production set-up).
#   scripts/pg-cluster.sh start DIR [PORT]   initdb (once) + start; prints the connection URL on stdout
#   scripts/pg-cluster.sh stop DIR           stops it (the data stays in DIR until you delete it)
# As root, the server runs as the `postgres` user (PostgreSQL refuses to run as root).
set -euo pipefail
cmd=${1:?start|stop}
dir=$(realpath -m "${2:?data directory}")
port=${3:-54329}
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bindir" ] || { echo "PostgreSQL server binaries not found (apt-get install postgresql-15)" >&2; exit 1; }

# From / so that the server's owner never needs to enter the caller's working directory.
as_owner() {
  if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

case "$cmd" in
  start)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    if [ ! -f "$dir/PG_VERSION" ]; then
      as_owner "$bindir/initdb" -D "$dir" -U repoctx --auth=trust -E UTF8 --no-locale >/dev/null
      {
        echo "listen_addresses = '127.0.0.1'"
        echo "port = $port"
        echo "unix_socket_directories = '$dir'"
        echo "max_connections = 300"
        echo "shared_buffers = 256MB"
        echo "fsync = off"
        echo "synchronous_commit = off"
        echo "full_page_writes = off"
        echo "maintenance_work_mem = 256MB"
        echo "max_wal_size = 4GB"
      } | as_owner tee -a "$dir/postgresql.conf" >/dev/null
    fi
    as_owner "$bindir/pg_ctl" -D "$dir" -l "$dir/server.log" -w start >/dev/null
    as_owner "$bindir/psql" -h 127.0.0.1 -p "$port" -U repoctx -d postgres -tAc \
      "SELECT 1 FROM pg_database WHERE datname = 'repoctx'" | grep -q 1 ||
      as_owner "$bindir/createdb" -h 127.0.0.1 -p "$port" -U repoctx repoctx
    echo "postgres://repoctx@127.0.0.1:$port/repoctx"
    ;;
  stop)
    [ -f "$dir/postmaster.pid" ] && as_owner "$bindir/pg_ctl" -D "$dir" -m fast -w stop >/dev/null
    ;;
  *) echo "usage: $0 start|stop DIR [PORT]" >&2; exit 2 ;;
esac
