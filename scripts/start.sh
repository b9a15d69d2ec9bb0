#!/usr/bin/env bash
# Starts Parla on its embedded defaults (PGlite and files in ./data, e-mail to data/outbox) at
# http://localhost:8000, installing and building what is missing first. Environment variables
# (see README) switch to PostgreSQL, SMTP, Redis...
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_node
ensure_npm_deps
[ -n "${APERTIUM_URL:-}" ] || ensure_apertium
ensure_speech
log "building the web client"
npm run build -w @parla/web --silent >/dev/null
log "starting the server"
exec node --import tsx apps/server/src/main.ts
