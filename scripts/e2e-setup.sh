#!/usr/bin/env bash
# Installs what the end-to-end suite (test/e2e) needs: Debian's Chromium (the browser playwright-core
# drives), ripgrep and the Kerberos headers (for the VS Code server's search and a native module), and
# code-server 4.100.3 (the real VS Code workbench and extension host, from the npm registry) into the
# git-ignored .vscode-test/code-server. Idempotent: each step is skipped when its result is already
# there, so a second run takes a second or two. Run as root (apt-get); CI runs as root.
#
# code-server's own postinstall downloads ripgrep from GitHub, which these machines cannot reach, so
# the install runs with --ignore-scripts and does the rest of that postinstall by hand, linking
# Debian's rg in place of the download. code-server 4.100.3 is the last release whose install accepts
# Node 20; package.json's engines.vscode (^1.100.0) matches its VS Code 1.100.3.
set -euo pipefail
cd "$(dirname "$0")/.."

readonly CODE_SERVER_VERSION=4.100.3
readonly INSTALL_DIR=.vscode-test/code-server
readonly DONE_MARKER="$INSTALL_DIR/.installed-$CODE_SERVER_VERSION"
readonly DEBIAN_PACKAGES=(chromium libkrb5-dev ripgrep build-essential python3 pkg-config)

say() { printf 'e2e-setup: %s\n' "$*"; }

missing_packages=()
for package in "${DEBIAN_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing_packages+=("$package")
  fi
done
if ((${#missing_packages[@]} > 0)); then
  if [[ $(id -u) -ne 0 ]]; then
    say "missing Debian packages: ${missing_packages[*]}; run this script as root (it uses apt-get)" >&2
    exit 1
  fi
  say "installing Debian packages: ${missing_packages[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing_packages[@]}"
else
  say "Debian packages already installed (${DEBIAN_PACKAGES[*]})"
fi

if [[ -f "$DONE_MARKER" && -x "$INSTALL_DIR/node_modules/.bin/code-server" ]]; then
  say "code-server $CODE_SERVER_VERSION already installed in $INSTALL_DIR"
  exit 0
fi

say "installing code-server $CODE_SERVER_VERSION into $INSTALL_DIR (about two minutes)"
rm -rf "$INSTALL_DIR"
mkdir -p "$INSTALL_DIR"
(
  cd "$INSTALL_DIR"
  npm init -y >/dev/null
  npm install --no-audit --no-fund --ignore-scripts "code-server@$CODE_SERVER_VERSION"

  cd node_modules/code-server/lib/vscode
  npm install --no-audit --no-fund --omit=dev --ignore-scripts
  mkdir -p node_modules/@vscode/ripgrep/bin
  ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
  # Builds the native modules (node-pty, spdlog, kerberos, …) against this machine's Node.
  npm_config_yes=true npm rebuild
  ln -sfn node_modules node_modules.asar
  (cd bin/remote-cli && ln -sf code-linux.sh code-server)
  (cd bin/helpers && ln -sf browser-linux.sh browser.sh)
  (cd extensions && npm install --no-audit --no-fund --omit=dev)
)
(cd "$INSTALL_DIR" && npm_config_yes=true npm rebuild argon2)

"$INSTALL_DIR/node_modules/.bin/code-server" --version >/dev/null
touch "$DONE_MARKER"
say "code-server $CODE_SERVER_VERSION installed"
