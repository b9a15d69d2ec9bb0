#!/usr/bin/env bash
# Runs the start command on a free port with a fresh DATA_DIR and checks that the product
# answers: status, the web page, an account registered with its link taken from the outbox.
# Twice: in this checkout with the default NODE_ENV, then from a fresh clone (no node_modules, no
# build) with NODE_ENV=production, as a server would be set up.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

SERVER_PID=
# The start command execs the server in the subshell started for it: stop both.
stop_server() {
  [ -n "$SERVER_PID" ] || return 0
  pkill -TERM -P "$SERVER_PID" 2>/dev/null || true
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
}

# readme_walk <base URL> <DATA_DIR>: runs the README's curl walk-through as written (its address and
# data/outbox pointed at this server), with other people's e-mails in the outbox, newer and older.
readme_walk() {
  local base=$1 data=$2 walk out n
  walk=$(mktemp -d /tmp/parla-walk.XXXXXX)
  ln -s "$data" "$walk/data"
  for n in 1 2 3; do
    curl -fsS -X POST "$base/api/accounts/registration/" -H 'content-type: application/json' \
      -d "{\"email\":\"other$n-$RANDOM@example.com\",\"password1\":\"other-pass-word-$n\",\"password2\":\"other-pass-word-$n\",\"fullName\":\"Other $n\"}" >/dev/null
  done
  # The block between "## Try the API with curl" and its closing fence, with a registration of
  # someone else written just after this walk's own (the key must still be this address's).
  awk '/^## Try the API with curl/{on=1} on&&/^```sh/{inside=1;next} inside&&/^```/{exit} inside{print}' README.md |
    sed "s#http://localhost:8000#$base#g" |
    sed "s#^sleep 1#curl -fsS -X POST $base/api/accounts/registration/ -H 'content-type: application/json' -d '{\"email\":\"later-$RANDOM@example.com\",\"password1\":\"later-pass-word-1\",\"password2\":\"later-pass-word-1\",\"fullName\":\"Later\"}' >/dev/null; sleep 1#" >"$walk/walk.sh"
  out=$(cd "$walk" && bash -eo pipefail walk.sh 2>&1) || { echo "$out"; rm -rf "$walk"; return 1; }
  rm -rf "$walk"
  # The last step reads the user: the address registered by the walk-through.
  echo "$out" | grep -qE '"email":"ada-[0-9]+@example.com","fullName":"Ada Lovelace","avatarImage":null,"readingLanguage":null\}$' || { echo "$out"; return 1; }
}

# smoke_run <checkout> <label> [VAR=value...]: starts it, checks it, stops it.
smoke_run() {
  local checkout=$1 label=$2
  shift 2
  local port data pid base status key
  port=$(free_port)
  data=$(mktemp -d /tmp/parla-smoke.XXXXXX)
  (cd "$checkout" && env "$@" PORT="$port" DATA_DIR="$data" bash scripts/start.sh >"$data/server.log" 2>&1) &
  pid=$!
  SERVER_PID=$pid
  base="http://127.0.0.1:$port"
  # Up to 10 minutes: a fresh clone installs its packages and builds the client first.
  for _ in $(seq 1200); do
    curl -fs "$base/api/status/" >/dev/null 2>&1 && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if ! status=$(curl -fsS "$base/api/status/"); then
    tail -n 40 "$data/server.log"
    echo "smoke ($label): the server did not come up"
    return 1
  fi
  echo "$status" | grep -q '"status":"ok"' || { echo "smoke ($label): status: $status"; return 1; }
  curl -fsS "$base/signin" | grep -q '<div id="root">' || { echo "smoke ($label): the web client is not served"; return 1; }
  curl -fsS -X POST "$base/api/accounts/registration/" -H 'content-type: application/json' \
    -d '{"email":"smoke@example.com","password1":"smoke-test-pass-1","password2":"smoke-test-pass-1","fullName":"Smoke"}' >/dev/null
  sleep 0.5
  key=$(grep -rhoE '/signup/activation/[A-Za-z0-9_-]+$' "$data/outbox" | head -n 1 | sed 's#.*/##')
  [ -n "$key" ] || { echo "smoke ($label): no activation link in the outbox"; return 1; }
  curl -fsS -X POST "$base/api/accounts/registration/verify-email/" -H 'content-type: application/json' -d "{\"key\":\"$key\"}" >/dev/null
  curl -fsS -X POST "$base/api/accounts/login/" -H 'content-type: application/json' \
    -d '{"email":"smoke@example.com","password":"smoke-test-pass-1"}' | grep -q '"access"'
  readme_walk "$base" "$data" || { echo "smoke ($label): the README's curl walk-through failed"; return 1; }
  stop_server
  local passed=5
  if [[ " $* " == *" NODE_ENV=production "* ]]; then
    restart_check "$checkout" "$label" "$port" "$data" "$@" || return 1
    passed=6
  fi
  rm -rf "$data"
  echo "smoke ($label): $passed passed, 0 failed"
}

# restart_check <checkout> <label> <port> <DATA_DIR> [VAR=value...]: the production start again on
# the same data: it must build nothing (its sources did not change), run the compiled server, and
# serve; prints how long it took to answer.
restart_check() {
  local checkout=$1 label=$2 port=$3 data=$4 started ms
  shift 4
  started=$(date +%s%N)
  (cd "$checkout" && env "$@" PORT="$port" DATA_DIR="$data" bash scripts/start.sh >"$data/restart.log" 2>&1) &
  SERVER_PID=$!
  for _ in $(seq 1200); do
    curl -fs "http://127.0.0.1:$port/api/status/" >/dev/null 2>&1 && break
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  ms=$(( ($(date +%s%N) - started) / 1000000 ))
  if ! curl -fsS "http://127.0.0.1:$port/signin" | grep -q '<div id="root">'; then
    tail -n 40 "$data/restart.log"
    echo "smoke ($label): the restarted server did not serve"
    return 1
  fi
  stop_server
  if grep -q '== building' "$data/restart.log"; then
    grep '== ' "$data/restart.log"
    echo "smoke ($label): the restart built again though no source changed"
    return 1
  fi
  grep -q 'starting the server (production build)' "$data/restart.log" || { echo "smoke ($label): the restart did not run the compiled server"; return 1; }
  echo "smoke ($label): restarted without building, answering after $ms ms"
}

clone=$(mktemp -d /tmp/parla-smoke-clone.XXXXXX)
trap 'stop_server; rm -rf "$clone"' EXIT

smoke_run . "this checkout"
# What is committed, as a fresh clone: uncommitted work is not part of it.
git clone -q . "$clone/parla"
smoke_run "$clone/parla" "fresh clone, NODE_ENV=production" NODE_ENV=production
