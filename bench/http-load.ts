// The load generator of the HTTP bench, run in a child process so that it never shares an event
// loop with the server under test: `connections` loops over one undici Pool, each sending small
// JSON POSTs back to back, until `durationMs` passes or `maxRequests` were sent.
import { Pool } from "undici";

/** What the parent asks for. */
export interface LoadRequest {
  readonly url: string;
  readonly path: string;
  readonly connections: number;
  readonly durationMs: number;
  readonly maxRequests: number;
}

/** What the child answers. */
export interface LoadResult {
  readonly requests: number;
  readonly errors: number;
  readonly elapsedMs: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

async function runLoad(request: LoadRequest): Promise<LoadResult> {
  const pool = new Pool(request.url, { connections: request.connections, pipelining: 1 });
  const latencies = new Float64Array(request.maxRequests);
  let sent = 0;
  let done = 0;
  let errors = 0;
  const started = performance.now();
  const until = started + request.durationMs;
  const loop = async (): Promise<void> => {
    while (sent < request.maxRequests && performance.now() < until) {
      const n = sent++;
      const begun = performance.now();
      try {
        const response = await pool.request({
          method: "POST",
          path: request.path,
          headers: { "content-type": "application/json" },
          body: `{"n":${n},"name":"item-${n}","tags":["a","b"]}`,
        });
        await response.body.text();
        if (response.statusCode !== 200) errors++;
      } catch {
        errors++;
      }
      latencies[done++] = performance.now() - begun;
    }
  };
  await Promise.all(Array.from({ length: request.connections }, loop));
  const elapsedMs = performance.now() - started;
  await pool.close();
  const sorted = latencies.slice(0, done).sort();
  return {
    requests: done,
    errors,
    elapsedMs,
    requestsPerSecond: (done / elapsedMs) * 1000,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
  };
}

process.on("message", (message: LoadRequest) => {
  runLoad(message).then(
    (result) => process.send?.(result),
    (error: unknown) => process.send?.({ error: error instanceof Error ? error.message : String(error) }),
  );
});
