import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { createContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { llm, llmPlugin, openAiChat } from "@routekit/llm";
import { request } from "undici";
import {
  type BenchOptions,
  type BenchRow,
  collectYoungGarbage,
  printRow,
  rowOf,
  summarise,
} from "./harness.js";

// Time to first byte of a streamed agent answer through an http: SSE route, beside the model's
// own time to first byte, and the cost of each further chunk; both measured in the same process,
// in alternating rounds, against one loopback model server speaking the OpenAI stream format.

/** The model's pace: its first delta, and each next one, this long after the previous. */
const PACE_MS = 2;
const PACED_CHUNKS = 5;
/** Chunks of the burst run (written as fast as the socket takes them), for the per-chunk cost. */
const BURST_CHUNKS = 400;

const chunk = (content: string): string =>
  `data: {"object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"${content}"},"finish_reason":null}]}\n\n`;
const END =
  'data: {"object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n' +
  'data: {"object":"chat.completion.chunk","model":"m","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":5}}\n\n' +
  "data: [DONE]\n\n";

/** The model: paced deltas for a prompt of "paced", a burst of deltas for "burst". */
async function startModel(): Promise<{ server: Server; baseURL: string }> {
  const server = createServer(
    { keepAliveTimeout: 60_000 },
    (incoming: IncomingMessage, response: ServerResponse) => {
      const parts: Buffer[] = [];
      incoming.on("data", (part: Buffer) => parts.push(part));
      incoming.on("end", async () => {
        const burst = Buffer.concat(parts).includes("burst");
        response.writeHead(200, { "content-type": "text/event-stream" });
        if (burst) {
          for (let index = 0; index < BURST_CHUNKS; index++) response.write(chunk(`t${index} `));
        } else {
          for (let index = 0; index < PACED_CHUNKS; index++) {
            await sleep(PACE_MS);
            response.write(chunk(`t${index} `));
          }
        }
        response.end(END);
      });
    },
  );
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { server, baseURL: `http://127.0.0.1:${port}/v1` };
}

/**
 * Reads a response to its end; resolves with the ns until the first body chunk and until the end,
 * and the CPU time of the process (user + system, ns) until the first body chunk.
 */
async function timeResponse(
  started: bigint,
  cpuStarted: NodeJS.CpuUsage,
  body: AsyncIterable<Buffer>,
  expected: string,
): Promise<[number, number, number]> {
  let first = 0;
  let firstCpu = 0;
  let seen = "";
  for await (const part of body) {
    if (first === 0) {
      first = Number(process.hrtime.bigint() - started);
      const cpu = process.cpuUsage(cpuStarted);
      firstCpu = (cpu.user + cpu.system) * 1000;
    }
    if (seen.length < 200) seen += part.toString("utf8");
  }
  if (!seen.includes(expected))
    throw new Error(`the stream did not carry ${expected}: ${seen.slice(0, 120)}`);
  return [first, Number(process.hrtime.bigint() - started), firstCpu];
}

export async function runStreamBench(options: BenchOptions): Promise<BenchRow[]> {
  const model = await startModel();
  const context = createContext({ logLevel: "warn" });
  context.use(httpPlugin());
  context.use(
    llmPlugin({
      models: { m: openAiChat({ model: "m", baseURL: model.baseURL, apiKey: "x", stream: true }) },
    }),
  );
  await context.addRoutes((r) => {
    r.from("http:/chat?httpMethodRestrict=POST").to(llm("m").stream().uri());
  });
  await context.start();
  const routeUrl = `${httpServerOf(context).url}/chat`;
  const modelUrl = `${model.baseURL}/chat/completions`;
  const direct = async (prompt: string) => {
    const cpuStarted = process.cpuUsage();
    const started = process.hrtime.bigint();
    const response = await request(modelUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: prompt }] }),
    });
    return timeResponse(started, cpuStarted, response.body, "t0 ");
  };
  const routed = async (prompt: string) => {
    const cpuStarted = process.cpuUsage();
    const started = process.hrtime.bigint();
    const response = await request(routeUrl, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: prompt,
    });
    return timeResponse(started, cpuStarted, response.body, '"text":"t0 "');
  };
  try {
    const rounds = options.quick ? 30 : 200;
    const samples = {
      directFirst: [] as number[],
      routedFirst: [] as number[],
      directChunk: [] as number[],
      routedChunk: [] as number[],
      directCpu: [] as number[],
      routedCpu: [] as number[],
      directFirstCpu: [] as number[],
      routedFirstCpu: [] as number[],
    };
    for (let round = 0; round < rounds + 5; round++) {
      const order = round % 2 === 0 ? [direct, routed] : [routed, direct];
      for (const side of order) {
        collectYoungGarbage();
        const [first, , firstCpu] = await side("paced");
        collectYoungGarbage();
        const cpuBefore = process.cpuUsage();
        const [, whole] = await side("burst");
        const cpu = process.cpuUsage(cpuBefore);
        // The CPU time of the whole process (model server, client and route) per delta, in ns.
        const cpuPerDelta = ((cpu.user + cpu.system) * 1000) / BURST_CHUNKS;
        if (round < 5) continue;
        if (side === direct) {
          samples.directFirst.push(first);
          samples.directChunk.push(whole / BURST_CHUNKS);
          samples.directCpu.push(cpuPerDelta);
          samples.directFirstCpu.push(firstCpu);
        } else {
          samples.routedFirst.push(first);
          samples.routedChunk.push(whole / BURST_CHUNKS);
          samples.routedCpu.push(cpuPerDelta);
          samples.routedFirstCpu.push(firstCpu);
        }
      }
    }
    const [directFirst, routedFirst] = [summarise(samples.directFirst), summarise(samples.routedFirst)];
    const [directChunk, routedChunk] = [summarise(samples.directChunk), summarise(samples.routedChunk)];
    const addedFirstMs = (routedFirst.medianNs - directFirst.medianNs) / 1e6;
    const addedChunkUs = (routedChunk.medianNs - directChunk.medianNs) / 1e3;
    const [directCpu, routedCpu] = [summarise(samples.directCpu), summarise(samples.routedCpu)];
    const addedCpuUs = (routedCpu.medianNs - directCpu.medianNs) / 1e3;
    const [directFirstCpu, routedFirstCpu] = [
      summarise(samples.directFirstCpu),
      summarise(samples.routedFirstCpu),
    ];
    const addedFirstCpuMs = (routedFirstCpu.medianNs - directFirstCpu.medianNs) / 1e6;
    const benchmark = `streamed answer, loopback model pacing ${PACE_MS} ms per delta`;
    return [
      rowOf(
        {
          benchmark,
          subject: "time to first byte through an http: SSE route (llm(...).stream())",
          baseline: "the model's own time to first byte",
          baselineDescription:
            "undici.request straight to the loopback model, time until its first body chunk",
          subjectStats: routedFirst,
          baselineStats: directFirst,
          target: "≤ model TTFB + 2 ms at the median",
          note: `${rounds} rounds each; routekit adds ${addedFirstMs.toFixed(2)} ms to the first byte (HTTP in, route, llm step, model call, SSE out)`,
        },
        () => addedFirstMs <= 2,
      ),
      rowOf(
        {
          benchmark: `${benchmark}, CPU time`,
          subject: "CPU until the first byte through the http: SSE route",
          baseline: "CPU until the model's own first byte",
          baselineDescription:
            "undici.request straight to the loopback model; CPU time of the bench process (process.cpuUsage) until its first body chunk",
          subjectStats: routedFirstCpu,
          baselineStats: directFirstCpu,
          target: "≤ the model's + 2 ms of CPU at the median",
          note: `routekit adds ${addedFirstCpuMs.toFixed(2)} ms of CPU before the first byte (the model's pacing waits use none)`,
        },
        () => addedFirstCpuMs <= 2,
      ),
      rowOf(
        {
          benchmark: `streamed answer, ${BURST_CHUNKS} deltas in a burst`,
          subject: "each delta through the http: SSE route",
          baseline: "each delta read straight from the model",
          baselineDescription: "undici.request straight to the loopback model, whole stream time / deltas",
          subjectStats: routedChunk,
          baselineStats: directChunk,
          target: "≤ 20 µs per chunk above the model's",
          note: `routekit adds ${addedChunkUs.toFixed(1)} µs per delta (parse the event, assemble, hand on the part, write one SSE event)`,
        },
        () => addedChunkUs <= 20,
      ),
      rowOf(
        {
          benchmark: `streamed answer, ${BURST_CHUNKS} deltas in a burst, CPU time`,
          subject: "CPU per delta through the http: SSE route",
          baseline: "CPU per delta read straight from the model",
          baselineDescription:
            "undici.request straight to the loopback model; CPU time of the bench process (process.cpuUsage) per delta",
          subjectStats: routedCpu,
          baselineStats: directCpu,
          target: "≤ 20 µs of CPU per chunk above the model's",
          note: `routekit adds ${addedCpuUs.toFixed(1)} µs of CPU per delta (the model server and the client run in the same process, on both sides)`,
        },
        () => addedCpuUs <= 20,
      ),
    ];
  } finally {
    await context.stop();
    model.server.closeAllConnections();
    model.server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runStreamBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
