#!/usr/bin/env bash
# Runs the start command on a free port with a fresh DATA_DIR and checks that the product
# answers: status, the web page, an account registered with its link taken from the outbox.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
port=$(free_port)
data=$(mktemp -d /tmp/parla-smoke.XXXXXX)
PORT=$port DATA_DIR=$data bash scripts/start.sh >"$data/server.log" 2>&1 &
pid=$!
stop() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$data"; }
trap stop EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 120); do curl -fs "$base/api/status/" >/dev/null 2>&1 && break; sleep 0.5; done
status=$(curl -fsS "$base/api/status/") || { cat "$data/server.log"; exit 1; }
echo "$status" | grep -q '"status":"ok"' || { echo "status: $status"; exit 1; }
curl -fsS "$base/signin" | grep -q '<div id="root">' || { echo "the web client is not served"; exit 1; }
curl -fsS -X POST "$base/api/accounts/registration/" -H 'content-type: application/json' \
  -d '{"email":"smoke@example.com","password1":"smoke-test-pass-1","password2":"smoke-test-pass-1","fullName":"Smoke"}' >/dev/null
sleep 0.5
key=$(grep -rhoE '/signup/activation/[A-Za-z0-9_-]+$' "$data/outbox" | head -n 1 | sed 's#.*/##')
[ -n "$key" ] || { echo "no activation link in the outbox"; exit 1; }
curl -fsS -X POST "$base/api/accounts/registration/verify-email/" -H 'content-type: application/json' -d "{\"key\":\"$key\"}" >/dev/null
curl -fsS -X POST "$base/api/accounts/login/" -H 'content-type: application/json' \
  -d '{"email":"smoke@example.com","password":"smoke-test-pass-1"}' | grep -q '"access"'
echo "smoke: 4 passed, 0 failed"
