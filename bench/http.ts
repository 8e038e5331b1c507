// An `http:` route answering small JSON beside a plain node:http server doing the same parse and
// serialise work, in the same run, on loopback. The load comes from a child process (undici
// Pool, 50 connections) so the generator never shares the servers' event loop. Runs alternate
// between the two servers; each run is bounded by time and by a request count.
import { type ChildProcess, fork } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { type BenchOptions, type BenchRow, rowOf, summarise } from "./harness.js";
import type { LoadRequest, LoadResult } from "./http-load.js";
import { startWrkLoad, wrkInstalled } from "./http-wrk.js";

const CONNECTIONS = 50;

interface Item {
  n: number;
  name: string;
}

/** The plain server: reads the body, parses it, answers a small JSON object. */
function startPlainServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      let item: Item;
      try {
        item = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Item;
      } catch {
        response.writeHead(400).end();
        return;
      }
      const payload = JSON.stringify({ ok: true, n: item.n, name: item.name });
      response.writeHead(200, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(payload),
      });
      response.end(payload);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => {
          server.closeAllConnections();
          return new Promise((done) => server.close(() => done()));
        },
      });
    });
  });
}

/** The routekit server: one `http:` route doing the same work. */
async function startRoutekitServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const context = createContext({ logLevel: "off" });
  context.use(httpPlugin());
  await context.addRoutes((r) => {
    r.from<Item>("http:/echo?httpMethodRestrict=POST")
      .routeId("echo")
      .setBody((exchange) => ({ ok: true, n: exchange.body.n, name: exchange.body.name }));
  });
  await context.start();
  return { url: httpServerOf(context).url, close: () => context.stop({ timeoutMs: 5_000 }) };
}

/** A child process running http-load.ts, reused for every run. */
function startLoadGenerator(): { run: (request: LoadRequest) => Promise<LoadResult>; stop: () => void } {
  const child: ChildProcess = fork(new URL("./http-load.ts", import.meta.url), [], {
    execArgv: process.execArgv,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return {
    run: (request) =>
      new Promise((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`the load generator exited (${code})`));
        child.once("exit", onExit);
        child.once("message", (message: LoadResult | { error: string }) => {
          child.off("exit", onExit);
          if ("error" in message) reject(new Error(`load generator: ${message.error}`));
          else resolve(message);
        });
        child.send(request);
      }),
    stop: () => child.kill(),
  };
}

/** A forced full collection (the bench process is not started with --expose-gc). */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** Median and interquartile range of round-by-round ratios subject / baseline. */
function pairedRatio(subject: number[], baseline: number[]): { median: number; low: number; high: number } {
  const ratios = subject.map((value, index) => value / baseline[index]!).sort((a, b) => a - b);
  const at = (fraction: number) => ratios[Math.min(ratios.length - 1, Math.floor(ratios.length * fraction))]!;
  return { median: at(0.5), low: at(0.25), high: at(0.75) };
}

function describePaired(paired: { median: number; low: number; high: number }): string {
  return `${paired.median.toFixed(2)}× (IQR ${paired.low.toFixed(2)}–${paired.high.toFixed(2)})`;
}

export async function runHttpBench(options: BenchOptions): Promise<BenchRow[]> {
  const runs = options.quick ? 2 : 8;
  const durationMs = options.quick ? 2_000 : 5_000;
  const maxRequests = options.quick ? 100_000 : 2_000_000;
  const heapRequests = options.quick ? 50_000 : 200_000;
  const plain = await startPlainServer();
  const routekit = await startRoutekitServer();
  const useWrk = wrkInstalled();
  const load = useWrk ? startWrkLoad() : startLoadGenerator();
  const shape = { path: "/echo", connections: CONNECTIONS, durationMs, maxRequests };
  try {
    // Warm-up of both servers (JIT, connection pool).
    await load.run({ ...shape, url: plain.url, durationMs: 1_000 });
    await load.run({ ...shape, url: routekit.url, durationMs: 1_000 });
    const plainResults: LoadResult[] = [];
    const routekitResults: LoadResult[] = [];
    // CPU time of this process (both servers, no load generator) per request: robust to a busy
    // machine, where throughput and latency measure the machine as much as the server.
    const cpu = { plain: [] as number[], routekit: [] as number[] };
    const measured = async (url: string, into: LoadResult[], key: keyof typeof cpu): Promise<void> => {
      const before = process.cpuUsage();
      const result = await load.run({ ...shape, url });
      const used = process.cpuUsage(before);
      cpu[key].push((used.user + used.system) / result.requests);
      into.push(result);
    };
    // Rotated: plain first in even rounds, routekit first in odd ones.
    for (let run = 0; run < runs; run++) {
      if (run % 2 === 0) {
        await measured(plain.url, plainResults, "plain");
        await measured(routekit.url, routekitResults, "routekit");
      } else {
        await measured(routekit.url, routekitResults, "routekit");
        await measured(plain.url, plainResults, "plain");
      }
    }
    for (const result of [...plainResults, ...routekitResults]) {
      if (result.errors > 0) throw new Error(`${result.errors} of ${result.requests} requests failed`);
    }
    // Heap over a bounded count of requests, after a collection on both sides.
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    const heapRun = await load.run({
      ...shape,
      url: routekit.url,
      // wrk stops on time only: the run is as long as a measured one (a Node generator stops on the count).
      durationMs: useWrk ? durationMs : 10 * 60_000,
      maxRequests: heapRequests,
    });
    collectGarbage();
    const heapAfter = process.memoryUsage().heapUsed;

    const perRequestNs = (results: LoadResult[]) =>
      summarise(results.map((result) => 1e9 / result.requestsPerSecond));
    const p99Ns = (results: LoadResult[]) => summarise(results.map((result) => result.p99Ms * 1e6));
    const rps = (results: LoadResult[]) =>
      Math.round(results.reduce((sum, result) => sum + result.requestsPerSecond, 0) / results.length);
    const requests = (results: LoadResult[]) => results.reduce((sum, result) => sum + result.requests, 0);
    const generator = useWrk
      ? "wrk (one thread) in a process of its own"
      : "a Node child process (undici Pool; wrk not installed)";
    const conditions = `${CONNECTIONS} connections, ${runs} runs of ${durationMs / 1000} s per server in rotated order (AB, BA, …), loopback, load from ${generator}`;
    const median = (values: number[]) => summarise(values).medianNs;
    const timePerRequest = (results: LoadResult[]) => results.map((result) => 1 / result.requestsPerSecond);
    const pairedTime = pairedRatio(timePerRequest(routekitResults), timePerRequest(plainResults));
    const pairedCpu = pairedRatio(cpu.routekit, cpu.plain);
    const pairedP99 = pairedRatio(
      routekitResults.map((result) => result.p99Ms),
      plainResults.map((result) => result.p99Ms),
    );
    const throughput = rowOf(
      {
        benchmark: "http",
        subject: "http: route, small JSON",
        baseline: "plain node:http, same work",
        baselineDescription:
          "a node:http handler that reads the body, JSON.parse, builds the same small object, JSON.stringify, writeHead with content-type and content-length",
        subjectStats: perRequestNs(routekitResults),
        baselineStats: perRequestNs(plainResults),
        target: "≥ 0.5× throughput (ratio ≤ 2)",
        note: `throughput ${rps(routekitResults).toLocaleString("en-US")} vs ${rps(plainResults).toLocaleString("en-US")} req/s (${(rps(routekitResults) / rps(plainResults)).toFixed(2)}×); ${requests(routekitResults).toLocaleString("en-US")} and ${requests(plainResults).toLocaleString("en-US")} requests; paired time per request ${describePaired(pairedTime)}; server CPU per request ${median(cpu.routekit).toFixed(1)} µs vs ${median(cpu.plain).toFixed(1)} µs (medians ${(median(cpu.routekit) / median(cpu.plain)).toFixed(2)}×, paired ${describePaired(pairedCpu)}; target ≤ 1.3×); ${conditions}`,
      },
      (ratio) => ratio <= 2,
    );
    const latency = rowOf(
      {
        benchmark: "http p99",
        subject: "http: route, p99 latency",
        baseline: "plain node:http, p99 latency",
        baselineDescription:
          "the same plain server, 99th percentile of request latency seen by the load generator",
        subjectStats: p99Ns(routekitResults),
        baselineStats: p99Ns(plainResults),
        target: "p99 ≤ 2× plain",
        note: `paired ${describePaired(pairedP99)}; p99 as the load generator saw it; ${conditions}`,
      },
      (ratio) => ratio <= 2,
    );
    const heap = rowOf(
      {
        benchmark: "http heap",
        subject: `heap after ${heapRun.requests.toLocaleString("en-US")} requests`,
        baseline: "heap before",
        baselineDescription:
          "heap used after a full collection, before a run of requests (200,000, 50,000 with --quick; with wrk, one run's duration)",
        subjectStats: summarise([heapAfter]),
        baselineStats: summarise([heapBefore]),
        target: "flat: within 10%",
        unit: "bytes",
        note: `heap used after a full collection: ${(heapBefore / 2 ** 20).toFixed(1)} MiB before, ${(heapAfter / 2 ** 20).toFixed(1)} MiB after ${heapRun.requests.toLocaleString("en-US")} requests to the http: route (${Math.round(heapRun.requestsPerSecond).toLocaleString("en-US")} req/s)`,
      },
      (ratio) => ratio <= 1.1,
    );
    return [throughput, latency, heap];
  } finally {
    load.stop();
    await routekit.close();
    await plain.close();
  }
}
