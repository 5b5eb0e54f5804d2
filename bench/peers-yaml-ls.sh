#!/usr/bin/env bash
# Install the language-server benchmark's peer (yaml-language-server 2.0.0) into
# bench/.peers/yaml-language-server, a git-ignored folder with its own package.json. Never touches the
# project's own dependencies. Idempotent: does nothing when the pinned version is already installed
# and starts.
set -euo pipefail

YAML_LS_VERSION="2.0.0"
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PEER_DIR="$BENCH_DIR/.peers/yaml-language-server"
PKG="$PEER_DIR/node_modules/yaml-language-server"
BIN="$PKG/bin/yaml-language-server"

installed_ok() {
  [ -f "$PKG/package.json" ] || return 1
  [ "$(node -p "require('$PKG/package.json').version")" = "$YAML_LS_VERSION" ] || return 1
  [ -f "$BIN" ] || return 1
  # It loads: --help would start a server, so require its entry module instead.
  (cd "$PEER_DIR" && node -e "require.resolve('yaml-language-server')") >/dev/null 2>&1 || return 1
  return 0
}

if installed_ok; then
  echo "peers-yaml-ls.sh: yaml-language-server@$YAML_LS_VERSION already installed in $PEER_DIR"
  exit 0
fi

mkdir -p "$PEER_DIR"
cd "$PEER_DIR"
if [ ! -f package.json ]; then
  cat > package.json <<JSON
{
  "name": "evallens-bench-peer-yaml-ls",
  "private": true,
  "description": "Peer for bench/lsp.mjs; installed by bench/peers-yaml-ls.sh, git-ignored.",
  "dependencies": {
    "yaml-language-server": "$YAML_LS_VERSION"
  }
}
JSON
fi

echo "peers-yaml-ls.sh: npm install yaml-language-server@$YAML_LS_VERSION into $PEER_DIR"
# --prefix pins the install to this folder even though a parent folder has a package.json.
npm install --prefix "$PEER_DIR" --no-audit --no-fund --loglevel=error

if installed_ok; then
  echo "peers-yaml-ls.sh: yaml-language-server@$YAML_LS_VERSION ready ($(du -sh "$PEER_DIR/node_modules" | cut -f1))"
else
  echo "peers-yaml-ls.sh: install finished but yaml-language-server@$YAML_LS_VERSION does not load; see above" >&2
  exit 1
fi
