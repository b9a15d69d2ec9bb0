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
ensure_apertium
ensure_speech flite
# Debian's coturn: the TURN credentials a call hands out are checked against a real TURN server.
[ -x /usr/bin/turnserver ] || apt_install coturn

cleanup() { stop_throwaway_postgres; stop_throwaway_redis; }
trap cleanup EXIT

if [ -n "${DATABASE_URL:-}" ]; then log "PostgreSQL from DATABASE_URL"; else start_throwaway_postgres; fi
if [ -n "${REDIS_URL:-}" ]; then export REDIS_TEST_URL=$REDIS_URL; else start_throwaway_redis; fi
TEST_DATABASE_URL=$DATABASE_URL
unset DATABASE_URL REDIS_URL
export TEST_DATABASE_URL REDIS_TEST_URL

# Lint and type-check side by side: each is one process, and there are two cores.
log "lint and type-check"
lint_log=$(mktemp)
npm run lint --silent > "$lint_log" 2>&1 & lint_pid=$!
typecheck_status=0
npm run typecheck --silent || typecheck_status=$?
lint_status=0
wait "$lint_pid" || lint_status=$?
cat "$lint_log"; rm -f "$lint_log"
[ "$lint_status" -eq 0 ] || { echo "lint failed" >&2; exit "$lint_status"; }
[ "$typecheck_status" -eq 0 ] || { echo "type-check failed" >&2; exit "$typecheck_status"; }
# Commit subjects fit in 72 characters (git's one-line views cut them there), from the first
# commit that kept the rule; a shallow clone without it skips the check.
SUBJECTS_FROM=66d560b
if git rev-parse --verify --quiet "$SUBJECTS_FROM^{commit}" >/dev/null; then
  long=$(git log --format='%s' "$SUBJECTS_FROM..HEAD" | awk 'length($0) > 72')
  [ -z "$long" ] || { printf 'commit subjects over 72 characters:\n%s\n' "$long" >&2; exit 1; }
fi
# The web client's calls are typed by the server's OpenAPI document (apps/web/src/lib/openapi.gen.ts):
# a stale copy would let the two drift apart unseen.
log "the web client's API types are those of the server's document"
npm run api-types -w @parla/web --silent -- --check

log "contract unit tests"
(cd packages/contract && npx vitest run)
log "web client unit tests"
(cd apps/web && npx vitest run)

# Every server test runs on PGlite, the database of `npm start`. On PostgreSQL, the database of
# real deployments, run the tests whose subject the database driver can change: the bad-input guard
# (every operation, 200 cases each there, 60 on PGlite), the SQL behind chats, rooms, uploads,
# invitations, removal and sessions, concurrency and limits, jobs and restarts, two servers sharing
# Redis. Tests of speech, translation providers, e-mail flows, i18n, logging and the API document
# have nothing there that PGlite does not run the same way: they run once.
# Every answer of every test server is checked against the OpenAPI document (test/document-check.ts).
ON_POSTGRES=(test/bad-input.test.ts test/chats.test.ts test/rooms-api.test.ts test/rooms-uploads.test.ts
  test/invitations.test.ts test/removal.test.ts test/accounts-session.test.ts test/user-limits.test.ts
  test/rate-limit.test.ts test/chats-live.test.ts test/platform.test.ts test/jobs.test.ts
  test/chats-restart.test.ts test/housekeeping.test.ts test/fast-rows.test.ts test/chats-basics.test.ts
  test/chats-search.test.ts test/chats-attachments.test.ts test/notifications.test.ts test/glossary.test.ts
  test/chats-pins.test.ts test/chats-versions.test.ts test/chats-awareness.test.ts)
log "server tests on PGlite"
(cd apps/server && TEST_DATABASE=pglite npx vitest run)
log "server tests on PostgreSQL"
(cd apps/server && TEST_DATABASE=postgres npx vitest run "${ON_POSTGRES[@]}")

log "browser tests (Playwright, Debian Chromium)"
command -v chromium >/dev/null || apt_install chromium
# Real glyphs for the scripts of the 57 interface languages (Latin, Cyrillic, Greek, Arabic, Hebrew,
# Armenian, Devanagari, Kannada, Tamil, Thai in fonts-noto-core; Chinese, Japanese, Korean in
# fonts-noto-cjk; emoji reactions in fonts-noto-color-emoji): the browser tests and their
# screenshots must show no empty boxes.
missing_fonts=()
for font in fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji; do dpkg -s "$font" >/dev/null 2>&1 || missing_fonts+=("$font"); done
[ ${#missing_fonts[@]} -eq 0 ] || apt_install "${missing_fonts[@]}"
npm run build -w @parla/web --silent
(cd e2e && npx playwright test)

log "smoke test of the start command"
bash scripts/smoke.sh
log "all tests passed"
