#!/usr/bin/env bash
# Runs every check and test: lint, type-check, contract and web unit tests, server tests over real
# HTTP on PGlite and on PostgreSQL (a throw-away cluster unless DATABASE_URL is given), Redis-backed
# rate limits (a throw-away Redis unless REDIS_URL is given), browser tests in Debian's Chromium
# against the real server, and a smoke run of the start command.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_node
ensure_npm_deps

cleanup() { stop_throwaway_postgres; stop_throwaway_redis; }
trap cleanup EXIT

if [ -n "${DATABASE_URL:-}" ]; then log "PostgreSQL from DATABASE_URL"; else start_throwaway_postgres; fi
if [ -n "${REDIS_URL:-}" ]; then export REDIS_TEST_URL=$REDIS_URL; else start_throwaway_redis; fi
TEST_DATABASE_URL=$DATABASE_URL
unset DATABASE_URL REDIS_URL
export TEST_DATABASE_URL REDIS_TEST_URL

log "lint"
npm run lint --silent
log "type-check"
npm run typecheck --silent

log "contract unit tests"
(cd packages/contract && npx vitest run)
log "web client unit tests"
(cd apps/web && npx vitest run)

log "server tests on PGlite"
(cd apps/server && TEST_DATABASE=pglite npx vitest run)
log "server tests on PostgreSQL"
(cd apps/server && TEST_DATABASE=postgres npx vitest run)

log "browser tests (Playwright, Debian Chromium)"
command -v chromium >/dev/null || apt_install chromium
[ -n "$(find /usr/share/fonts \( -name '*.ttf' -o -name '*.otf' \) -print -quit 2>/dev/null)" ] || apt_install fonts-noto-core
npm run build -w @parla/web --silent
(cd e2e && npx playwright test)

log "smoke test of the start command"
bash scripts/smoke.sh
log "all tests passed"
