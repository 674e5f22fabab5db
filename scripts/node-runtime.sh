#!/usr/bin/env bash
# Prints the bin directory of a Node.js runtime (argument: a version or range, e.g. 22.13.0 or 24) taken from the npm
# registry's node-<platform>-<arch> package: the binary is in the tarball, so only the registry is needed and no
# install script runs. Cached under ${XDG_CACHE_HOME:-~/.cache}/agent-service/. Used by CI (scripts/test-node-lines.sh)
# and by `npm start` when the machine's Node.js is below the supported floor.
set -euo pipefail
spec="$1"
pkg="node-$(node -p 'process.platform + "-" + process.arch')"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/agent-service/node-$spec"
if [ ! -x "$dir/node_modules/$pkg/bin/node" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --ignore-scripts --no-audit --no-fund --loglevel=error "$pkg@$spec" >&2
fi
echo "$dir/node_modules/$pkg/bin"
