// The HTTP bench's load from wrk (Debian's package), when it is installed: a C load generator in a
// process of its own, so it takes less of the two cores than a Node one and never shares the
// servers' event loop. Each run POSTs the same small JSON as http-load.ts (a counter in the body)
// over `connections` connections on one wrk thread, and wrk's `done` hook prints one JSON line.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoadRequest, LoadResult } from "./http-load.js";

const SCRIPT = `
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
local counter = 0
request = function()
  counter = counter + 1
  local body = '{"n":' .. counter .. ',"name":"item-' .. counter .. '","tags":["a","b"]}'
  return wrk.format(nil, nil, nil, body)
end
done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format('{"requests":%d,"durationUs":%d,"errors":%d,"p50Us":%d,"p99Us":%d}\\n',
    summary.requests, summary.duration,
    errors.connect + errors.read + errors.write + errors.status + errors.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;

/** True when a `wrk` binary answers on PATH. */
export function wrkInstalled(): boolean {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // wrk --version exits 1 after printing its version; only a missing binary is ENOENT.
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

/** A wrk-driven load generator with the same shape as the Node one. */
export function startWrkLoad(): { run: (request: LoadRequest) => Promise<LoadResult>; stop: () => void } {
  const folder = mkdtempSync(join(tmpdir(), "routekit-wrk-"));
  const script = join(folder, "post.lua");
  writeFileSync(script, SCRIPT);
  return {
    run: (request) => runWrk(script, request),
    stop: () => rmSync(folder, { recursive: true, force: true }),
  };
}

function runWrk(script: string, request: LoadRequest): Promise<LoadResult> {
  const seconds = Math.max(1, Math.round(request.durationMs / 1000));
  const args = ["-t1", `-c${request.connections}`, `-d${seconds}s`, "-s", script, request.url + request.path];
  return new Promise((resolve, reject) => {
    const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      const line = output.split("\n").find((candidate) => candidate.startsWith('{"requests"'));
      if (code !== 0 || line === undefined) {
        reject(new Error(`wrk exited with ${code}: ${output.slice(0, 500)}`));
        return;
      }
      const parsed = JSON.parse(line) as {
        requests: number;
        durationUs: number;
        errors: number;
        p50Us: number;
        p99Us: number;
      };
      const elapsedMs = parsed.durationUs / 1000;
      resolve({
        requests: parsed.requests,
        errors: parsed.errors,
        elapsedMs,
        requestsPerSecond: (parsed.requests / elapsedMs) * 1000,
        p50Ms: parsed.p50Us / 1000,
        p99Ms: parsed.p99Us / 1000,
      });
    });
  });
}
