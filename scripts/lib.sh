# Shared steps of scripts/start.sh and scripts/test.sh: install what is missing, start throw-away
# services. Sourced, not run.

log() { printf '\033[1m== %s\033[0m\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "need root to run: $*" >&2; return 1; fi
}

APT_UPDATED=
apt_install() {
  command -v apt-get >/dev/null || { echo "apt-get not found: install $* by hand" >&2; return 1; }
  if [ -z "$APT_UPDATED" ]; then as_root apt-get update -qq; APT_UPDATED=1; fi
  log "installing $* (Debian packages)"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

ensure_node() {
  if ! command -v node >/dev/null || ! node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&b>=19)?0:1)'; then
    echo "Node.js 20.19 or newer is needed (found: $(node --version 2>/dev/null || echo none))." >&2
    exit 1
  fi
}

# npm ci when node_modules is missing or older than package-lock.json.
ensure_npm_deps() {
  local stamp=node_modules/.parla-lock-sha
  local want
  want=$(sha256sum package-lock.json | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    log "installing npm packages"
    npm ci --no-audit --no-fund --loglevel=error
    echo "$want" > "$stamp"
  fi
}

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# A PostgreSQL cluster in a temporary folder on a free port; sets DATABASE_URL and PG_TMP.
start_throwaway_postgres() {
  local bindir
  bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    apt_install postgresql
    bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  fi
  PG_TMP=$(mktemp -d /tmp/parla-pg.XXXXXX)
  local port run=()
  port=$(free_port)
  # initdb refuses to run as root: the cluster belongs to the postgres user then.
  if [ "$(id -u)" = 0 ]; then chown postgres "$PG_TMP"; run=(runuser -u postgres --); fi
  "${run[@]}" "$bindir/initdb" -D "$PG_TMP/data" -A trust -U postgres --no-sync >/dev/null
  "${run[@]}" "$bindir/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/server.log" -w \
    -o "-p $port -k $PG_TMP -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
  PG_RUN=("${run[@]}")
  PG_BIN=$bindir
  export DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  log "throw-away PostgreSQL on port $port"
}

stop_throwaway_postgres() {
  [ -n "${PG_TMP:-}" ] || return 0
  "${PG_RUN[@]}" "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_TMP"
  PG_TMP=
}

# A Redis server on a free port, keeping nothing on disk; sets REDIS_TEST_URL and REDIS_PID.
start_throwaway_redis() {
  command -v redis-server >/dev/null || apt_install redis-server
  local port
  port=$(free_port)
  REDIS_TMP=$(mktemp -d /tmp/parla-redis.XXXXXX)
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$REDIS_TMP" --daemonize no >"$REDIS_TMP/log" 2>&1 &
  REDIS_PID=$!
  for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  export REDIS_TEST_URL="redis://127.0.0.1:$port"
  log "throw-away Redis on port $port"
}

stop_throwaway_redis() {
  [ -n "${REDIS_PID:-}" ] || return 0
  kill "$REDIS_PID" 2>/dev/null || true
  wait "$REDIS_PID" 2>/dev/null || true
  rm -rf "$REDIS_TMP"
  REDIS_PID=
}
