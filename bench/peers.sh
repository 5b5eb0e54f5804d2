#!/usr/bin/env bash
# Install the benchmark's peer (promptfoo 0.120.0) into bench/.peers/promptfoo, a git-ignored
# folder with its own package.json. Never touches the project's own dependencies.
# Idempotent: does nothing when the pinned version is already installed and runs.
set -euo pipefail

PROMPTFOO_VERSION="0.120.0"
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PEER_DIR="$BENCH_DIR/.peers/promptfoo"
PF_PKG="$PEER_DIR/node_modules/promptfoo"

export PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1 \
  PROMPTFOO_DISABLE_REMOTE_GENERATION=1 PROMPTFOO_DISABLE_SHARING=1

installed_ok() {
  [ -f "$PF_PKG/package.json" ] || return 1
  [ "$(node -p "require('$PF_PKG/package.json').version")" = "$PROMPTFOO_VERSION" ] || return 1
  [ -e "$PF_PKG/drizzle" ] || return 1
  # better-sqlite3 must be built (its native addon loads).
  (cd "$PEER_DIR" && node -e "new (require('better-sqlite3'))(':memory:').close()") >/dev/null 2>&1 || return 1
  return 0
}

if installed_ok; then
  echo "peers.sh: promptfoo@$PROMPTFOO_VERSION already installed in $PEER_DIR"
  exit 0
fi

mkdir -p "$PEER_DIR"
cd "$PEER_DIR"
if [ ! -f package.json ]; then
  cat > package.json <<JSON
{
  "name": "evallens-bench-peers",
  "private": true,
  "description": "Peers for bench/run.mjs; installed by bench/peers.sh, git-ignored.",
  "dependencies": {
    "promptfoo": "$PROMPTFOO_VERSION"
  }
}
JSON
fi

echo "peers.sh: npm install promptfoo@$PROMPTFOO_VERSION into $PEER_DIR (large: ~1.2 GB)"
# --prefix pins the install to this folder even if a parent has a package.json.
npm install --prefix "$PEER_DIR" --no-audit --no-fund --loglevel=error

# npm 11 skips install scripts not listed in allowScripts: approve and build better-sqlite3.
npm install-scripts approve better-sqlite3 || true
npm rebuild better-sqlite3

# promptfoo 0.120.0 looks for its migrations one level above dist/.
ln -sfn dist/drizzle "$PF_PKG/drizzle"

if installed_ok; then
  echo "peers.sh: promptfoo@$PROMPTFOO_VERSION ready ($(du -sh "$PEER_DIR/node_modules" | cut -f1))"
else
  echo "peers.sh: install finished but promptfoo@$PROMPTFOO_VERSION does not load; see above" >&2
  exit 1
fi
