import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { servicesMissing } from "@routekit/test-support";
import { afterEach, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

const skip = await servicesMissing(["Redis"]);

/** A request the loopback provider received: when, from which caller, and its answer's status. */
interface Arrival {
  at: number;
  caller: string;
  status: number;
}

/** A loopback Chat Completions provider answering `decide(arrivals so far)`'s status. */
async function startProvider(decide: (arrivals: readonly Arrival[], now: number) => number) {
  const arrivals: Arrival[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        messages: Array<{ content: string }>;
      };
      const caller = String(body.messages[0]?.content).split(" ")[0] ?? "";
      const now = performance.now();
      const status = decide(arrivals, now);
      arrivals.push({ at: now, caller, status });
      if (status === 429) {
        response.writeHead(429, { "content-type": "application/json", "retry-after": "2" });
        response.end(JSON.stringify({ error: { message: "rate limited", type: "requests" } }));
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: "chatcmpl-1",
          object: "chat.completion",
          created: 1,
          model: "gpt-4o-mini",
          choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const children: ChildProcessWithoutNullStreams[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill();
  for (const close of closers.splice(0)) await close();
});

/** Starts a caller process; resolves once it is ready, with its final report as a promise. */
async function startCaller(environment: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "examples/test/support/quota-caller.ts"], {
    cwd: root,
    env: { ...process.env, ...environment },
  });
  children.push(child);
  let output = "";
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const report = new Promise<{ caller: string; outcomes: string[] }>((resolve, reject) => {
    child.on("exit", (code) => {
      const last = output.trim().split("\n").at(-1) ?? "";
      if (code === 0 && last.startsWith("{")) resolve(JSON.parse(last));
      else reject(new Error(`caller exited with ${code}: ${errors}`));
    });
  });
  report.catch(() => {});
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ready\n")) resolve();
    });
    child.once("exit", () => reject(new Error(`caller exited before it was ready: ${errors}`)));
  });
  return { go: () => child.stdin.end("go\n"), report };
}

/** Most arrivals within any window of `windowMs`. */
function busiestWindow(arrivals: readonly Arrival[], windowMs: number): number {
  const times = arrivals.map((arrival) => arrival.at).sort((left, right) => left - right);
  let most = 0;
  for (let start = 0, end = 0; end < times.length; end++) {
    while ((times[end] as number) - (times[start] as number) >= windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

describe.skipIf(skip)("a provider quota shared through Redis", () => {
  it("keeps two processes together within the provider's N requests per second", async () => {
    const allowed = 5;
    // The provider refuses a request past 5 within any second.
    const provider = await startProvider((arrivals, now) =>
      arrivals.filter((arrival) => arrival.status === 200 && now - arrival.at < 1000).length >= allowed
        ? 429
        : 200,
    );
    closers.push(provider.close);
    // 4 per second with a burst of one: any second holds at most 1 + 4 = 5 across both processes.
    const shared = {
      PROVIDER_URL: provider.url,
      REQUESTS_PER_MINUTE: "240",
      BURST_SECONDS: "0.25",
      QUOTA_NAME: `test-${randomUUID()}`,
      CALLS: "8",
      GAP_MS: "1",
    };
    const [first, second] = await Promise.all([
      startCaller({ ...shared, CALLER: "A" }),
      startCaller({ ...shared, CALLER: "B" }),
    ]);
    first.go();
    second.go();
    const reports = await Promise.all([first.report, second.report]);

    expect(reports.flatMap((report) => report.outcomes)).toEqual(Array(16).fill("ok"));
    expect(provider.arrivals.filter((arrival) => arrival.status === 429)).toEqual([]);
    expect(busiestWindow(provider.arrivals, 1000)).toBeLessThanOrEqual(allowed);
    expect(new Set(provider.arrivals.map((arrival) => arrival.caller))).toEqual(new Set(["A", "B"]));
  }, 60_000);

  it("a 429 with Retry-After: 2 pauses both processes' calls to that model", async () => {
    const provider = await startProvider((arrivals) => (arrivals.length === 0 ? 429 : 200));
    closers.push(provider.close);
    const shared = {
      PROVIDER_URL: provider.url,
      REQUESTS_PER_MINUTE: "6000",
      BURST_SECONDS: "1",
      QUOTA_NAME: `test-${randomUUID()}`,
      CALLS: "12",
      GAP_MS: "100",
    };
    const [first, second] = await Promise.all([
      startCaller({ ...shared, CALLER: "A" }),
      startCaller({ ...shared, CALLER: "B" }),
    ]);
    first.go();
    second.go();
    const reports = await Promise.all([first.report, second.report]);

    expect(reports.flatMap((report) => report.outcomes)).toEqual(Array(24).fill("ok"));
    const refused = provider.arrivals[0] as Arrival;
    expect(refused.status).toBe(429);
    // Calls already on their way when the 429 came may still arrive; none start during the pause.
    const during = provider.arrivals.filter(
      (arrival) => arrival.at > refused.at + 250 && arrival.at < refused.at + 1500,
    );
    expect(during).toEqual([]);
    const after = provider.arrivals.filter((arrival) => arrival.at >= refused.at + 1500);
    expect(new Set(after.map((arrival) => arrival.caller))).toEqual(new Set(["A", "B"]));
    const resumed = Math.min(...after.map((arrival) => arrival.at)) - refused.at;
    console.log(
      `provider quota: first call after the 429 arrived ${Math.round(resumed)} ms later (Retry-After: 2)`,
    );
  }, 60_000);
});
