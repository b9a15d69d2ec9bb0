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
# Built only when their sources changed since the last build (a restart serves at once).
build_if_changed "the web client" apps/web/dist "npm run build -w @parla/web --silent >/dev/null" \
  apps/web/src apps/web/public apps/web/scripts apps/web/index.html apps/web/vite.config.ts apps/web/package.json \
  packages/contract package-lock.json
if [ "${NODE_ENV:-}" = production ]; then
  # Compiled JavaScript (esbuild, apps/server/scripts/build.mjs); no TypeScript at run time.
  build_if_changed "the server" apps/server/dist "npm run build -w @parla/server --silent" \
    apps/server/src apps/server/scripts/build.mjs apps/server/package.json packages/contract package-lock.json
  log "starting the server (production build)"
  exec node --enable-source-maps apps/server/dist/main.js
fi
log "starting the server"
exec node --import tsx apps/server/src/main.ts
