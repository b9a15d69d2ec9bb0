# Shared steps of scripts/start.sh and scripts/test.sh: install what is missing, start throw-away
# services. Sourced, not run.

log() { printf '\033[1m== %s\033[0m\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "need root to run: $*" >&2; return 1; fi
}

APT_UPDATED=
# Another install may hold the package lock (unattended upgrades, a parallel run): wait for it up
# to 10 minutes instead of failing.
APT_WAIT=(-o DPkg::Lock::Timeout=600)
apt_install() {
  command -v apt-get >/dev/null || { echo "apt-get not found: install $* by hand" >&2; return 1; }
  if [ -z "$APT_UPDATED" ]; then as_root apt-get "${APT_WAIT[@]}" update -qq; APT_UPDATED=1; fi
  log "installing $* (Debian packages)"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get "${APT_WAIT[@]}" install -y -qq --no-install-recommends "$@" >/dev/null
}

ensure_node() {
  if ! command -v node >/dev/null || ! node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&b>=19)?0:1)'; then
    echo "Node.js 20.19 or newer is needed (found: $(node --version 2>/dev/null || echo none))." >&2
    exit 1
  fi
}

# npm ci when node_modules is missing or older than package-lock.json. Development dependencies are
# always installed (the web client is built with them), whatever NODE_ENV says: under
# NODE_ENV=production npm would leave them out and the build would fail (vite: not found).
ensure_npm_deps() {
  local stamp=node_modules/.parla-lock-sha
  local want
  want=$(sha256sum package-lock.json | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    log "installing npm packages"
    npm ci --include=dev --no-audit --no-fund --loglevel=error
    echo "$want" > "$stamp"
  fi
}

# build_if_changed <name> <output folder> <command> <source paths...>: runs the build command
# unless the output folder holds a build of exactly these sources (a digest of their files'
# names and contents, kept beside the output), so a restart does not rebuild what it has.
build_if_changed() {
  local name=$1 out=$2 command=$3 digest stamp
  shift 3
  stamp="$out/.parla-build-digest"
  digest=$( (find "$@" -type f -not -path '*/node_modules/*' -not -path '*/dist/*' -not -path '*/test-results/*' -print0 |
    sort -z | xargs -0 sha256sum; node --version) | sha256sum | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$digest" ]; then
    log "$name: built already from these sources"
    return 0
  fi
  log "building $name"
  bash -c "$command"
  echo "$digest" > "$stamp"
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

# Apertium (the embedded translation default): Debian's APY and every Debian 12 pair package whose
# two languages are both among the contract's 57 (LANGUAGES; Apertium names them in ISO 639-3:
# hbs = sr/hr/bs, nob/nno = no, zlm = ms). Chosen by hand from `apt-cache search apertium` on
# Debian 12: the 3-letter package where Debian has an old 2-letter one too (the old one is a
# transitional dummy for it); en-gl, es-gl, es-pt, es-ro and fr-es exist only under their old
# name. Left out: apertium-nno-nob (both sides are our `no`), and pairs with a language we lack
# (eo, eu, oc, an, ast, br, frp, sc, szl).
APERTIUM_PACKAGES=(
  apertium-apy
  apertium-eng-spa apertium-eng-cat apertium-en-gl apertium-hbs-eng apertium-isl-eng apertium-mkd-eng
  apertium-spa-cat apertium-spa-ita apertium-es-gl apertium-es-pt apertium-es-ro apertium-fr-es
  apertium-cat-ita apertium-fra-cat apertium-por-cat apertium-pt-gl
  apertium-hbs-mkd apertium-hbs-slv apertium-mkd-bul apertium-bel-rus apertium-rus-ukr
  apertium-dan-nor apertium-swe-dan apertium-swe-nor apertium-isl-swe
  apertium-afr-nld apertium-ind-zlm apertium-urd-hin
)
# Installs what is missing of APERTIUM_PACKAGES; without root or sudo (or apt-get) it says what to
# install and goes on: the server then runs without Apertium.
ensure_apertium() {
  local installed missing=() p
  # One dpkg-query for all (the fast path of every start): the names of those installed.
  installed=" $(dpkg-query -W -f='${db:Status-Status}:${Package} ' "${APERTIUM_PACKAGES[@]}" 2>/dev/null | tr ' ' '\n' | sed -n 's/^installed://p' | tr '\n' ' ' || true) "
  for p in "${APERTIUM_PACKAGES[@]}"; do [[ "$installed" == *" $p "* ]] || missing+=("$p"); done
  [ ${#missing[@]} -gt 0 ] || return 0
  if ! command -v apt-get >/dev/null || { [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; }; then
    echo "Apertium (offline translation) is not installed; the server runs without it. To add it:" >&2
    echo "  apt-get install --no-install-recommends ${missing[*]}" >&2
    return 0
  fi
  apt_install "${missing[@]}" || echo "installing Apertium failed; the server runs without the pairs that are missing" >&2
  # Debian's package also enables a system-wide APY on every interface (port 2737); Parla starts
  # its own on loopback, so that one is switched off.
  if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
    as_root systemctl disable --now apertium-apy >/dev/null 2>&1 || true
  fi
}

# Speech (the embedded defaults of live rooms): Debian's espeak-ng (voices), pocketsphinx with its
# US English model (transcription; python3-pocketsphinx: recognition while people speak),
# opus-tools (opusenc/opusdec: Ogg Opus out) and ffmpeg (ffprobe measures and checks Ogg/WebM
# uploads, ffmpeg decodes them for pocketsphinx). Packages given as
# arguments are added (test.sh: flite, the voice its pocketsphinx test is spoken in). Without root
# or sudo (or apt-get) it says what to install and goes on: the server then runs without them.
SPEECH_PACKAGES=(espeak-ng pocketsphinx pocketsphinx-en-us python3-pocketsphinx opus-tools ffmpeg)
ensure_speech() {
  local wanted=("${SPEECH_PACKAGES[@]}" "$@") installed missing=() p
  installed=" $(dpkg-query -W -f='${db:Status-Status}:${Package} ' "${wanted[@]}" 2>/dev/null | tr ' ' '\n' | sed -n 's/^installed://p' | tr '\n' ' ' || true) "
  for p in "${wanted[@]}"; do [[ "$installed" == *" $p "* ]] || missing+=("$p"); done
  [ ${#missing[@]} -gt 0 ] || return 0
  if ! command -v apt-get >/dev/null || { [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; }; then
    echo "Offline speech (pocketsphinx, espeak-ng, ffmpeg) is incomplete; live rooms run without what is missing. To add it:" >&2
    echo "  apt-get install --no-install-recommends ${missing[*]}" >&2
    return 0
  fi
  apt_install "${missing[@]}" || echo "installing the speech packages failed; live rooms run without what is missing" >&2
}
