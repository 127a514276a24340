#!/usr/bin/env bash
# The README's test command (`npm test`): typecheck, lint, unit tests (vitest),
# end-to-end tests (Playwright in Debian Chromium against the web shell) and the
# desktop package check (npm run dist:check: its JSON line into dist.json).
# Each suite writes a JSON report; scripts/summarize-tests.mjs prints the
# closing line "N passed, N failed[, N skipped]". Exit 1 if anything failed.
set -u
cd "$(dirname "$0")/.."
out=test-results
mkdir -p "$out"
rm -f "$out"/*.json "$out"/*.status

run() { # name, command...
  local name=$1; shift
  echo "::: $name: $*"
  "$@"
  echo $? > "$out/$name.status"
}

run typecheck npx tsc -b tsconfig.json
run lint npx eslint . --max-warnings=0
run unit npx vitest run --reporter=default --reporter=json --outputFile.json="$out/unit.json"
if [ "${LORECRAFT_SKIP_E2E:-}" != "1" ]; then
  run build npm run --silent build:renderer
  # the config's reporters: list + json into test-results/e2e.json (a --reporter flag would send the JSON to stdout)
  run e2e npx playwright test
fi
run dist sh -c "node scripts/dist-check.mjs > $out/dist.json"
node scripts/summarize-tests.mjs "$out"
